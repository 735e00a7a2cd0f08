// The fixed sweep every certification sends before its seeded cases: each request field of each
// explored endpoint gets each mismatch kind (a wrong type, null where the field is not nullable, each
// side of a stated integer range) and each unusual valid kind (text outside the BMP, a boundary length,
// a boundary integer); and the drawn cases come one at a time, the same as fast-check's stream.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { drawCases, leaves, mismatchClasses, type Mutation } from '../src/schema/explore-cases.js';
import { ASTRAL_TEXT } from '../src/schema/explore-sweep.js';
import { streamSeed } from '../src/schema/explore-cases.js';
import { ENDPOINTS } from '../suites/explore/endpoints.js';
import { explores, shareOf, sweepOf } from '../suites/explore/sending.js';
import { defaultExploreRequests } from '../src/config/explore-defaults.js';

const at = (m: Mutation): string => ('path' in m ? m.path.join('/') : '');

describe('the sweep', () => {
  it.each(ENDPOINTS.map((ep) => [ep.name, ep] as const))(
    '%s: every field gets a wrong type, null where not nullable, and each side of its range',
    (_name, ep) => {
      const sweep = sweepOf(ep, 'mismatch');
      const fields = leaves(ep.shape);
      expect(fields.length).toBeGreaterThan(0);
      for (const l of fields) {
        const mine = sweep.filter((m) => at(m) === l.path.join('/'));
        const kinds = new Set(mine.map((m) => m.kind));
        expect(kinds.has('sweep:wrong-type') || kinds.has('sweep:number-as-string'), l.pattern).toBe(true);
        const nullable = l.field.kind === 'nullable-string' || (l.field.values ?? []).includes(null);
        expect(kinds.has('sweep:null'), l.pattern).toBe(!nullable);
        const bounds = [l.field.minimum, l.field.maximum].filter((b) => b !== undefined).length;
        expect(
          mine.filter((m) => m.kind === 'sweep:out-of-range'),
          l.pattern,
        ).toHaveLength(bounds);
      }
    },
  );

  it.each(ENDPOINTS.map((ep) => [ep.name, ep] as const))(
    '%s: every text field gets astral text and a boundary length, every identifier astral text',
    (_name, ep) => {
      const sweep = sweepOf(ep, 'valid');
      const fields = leaves(ep.shape);
      expect(fields.length).toBeGreaterThan(0);
      for (const l of fields) {
        const mine = sweep.filter((m) => at(m) === l.path.join('/'));
        if ((ep.shape.text ?? []).includes(l.pattern)) {
          expect(mine.find((m) => m.kind === 'sweep:outside-bmp' && m.op === 'set')?.op, l.pattern).toBe('set');
          const boundary = mine.find((m) => m.kind === 'sweep:boundary-length');
          const length = boundary && boundary.op === 'set' ? String(boundary.value).length : -1;
          expect(length, l.pattern).toBe(l.field.maxLength ?? 1);
        } else if ((ep.shape.ids ?? []).includes(l.pattern)) {
          const suffix = mine.find((m) => m.op === 'suffix');
          expect(suffix && suffix.op === 'suffix' ? suffix.text.trim() : '', l.pattern).toBe(ASTRAL_TEXT);
        }
      }
      // Every sweep value is ordinary input: a 5xx to any of them fails.
      expect(sweep.filter((m) => m.open !== undefined)).toEqual([]);
    },
  );

  it('--explore 300 leaves every check its whole sweep and seeded cases besides', () => {
    for (const ep of ENDPOINTS)
      for (const p of ['mismatch', 'valid', 'schema', 'stored'] as const) {
        if (!explores(ep, p)) continue;
        expect(shareOf({ requests: 300, seed: 1 }, ep, p), `${ep.name} ${p}`).toBeGreaterThan(sweepOf(ep, p).length);
      }
  });

  it('the default cap at 120 a minute gives every check a case and every field its wrong type', () => {
    const cap = { requests: defaultExploreRequests(120), seed: 1 };
    for (const ep of ENDPOINTS)
      for (const p of ['mismatch', 'valid', 'schema', 'stored'] as const) {
        if (!explores(ep, p)) continue;
        expect(shareOf(cap, ep, p), `${ep.name} ${p}`).toBeGreaterThan(0);
      }
    for (const ep of ENDPOINTS) {
      const kinds = sweepOf(ep, 'mismatch').map((m) => m.kind);
      const lastWrongType = Math.max(
        kinds.lastIndexOf('sweep:wrong-type'),
        kinds.lastIndexOf('sweep:number-as-string'),
      );
      expect(shareOf(cap, ep, 'mismatch'), ep.name).toBeGreaterThan(lastWrongType);
    }
  });

  it('a larger cap never gives a check fewer requests', () => {
    for (const ep of ENDPOINTS)
      for (const p of ['mismatch', 'valid', 'schema', 'stored'] as const) {
        if (!explores(ep, p)) continue;
        const shares = Array.from({ length: 401 }, (_, requests) => shareOf({ requests, seed: 1 }, ep, p));
        const drops = shares.flatMap((n, i) => (i > 0 && n < shares[i - 1]! ? [i] : []));
        expect(drops, `${ep.name} ${p}`).toEqual([]);
      }
  });
});

describe('drawing the cases', () => {
  const users = ENDPOINTS.find((e) => e.name === 'users')!;
  const classes = mismatchClasses(users.shape);

  it('draws the same cases one at a time as fast-check draws each class stream at once', () => {
    const lazy = [...drawCases(classes, classes.length * 3, 99)];
    const eager = classes.map((c) => fc.sample(c.arb, { seed: streamSeed(99, c.kind), numRuns: 3 }));
    expect(lazy.map((d) => d.mutation)).toEqual(lazy.map((d) => eager[d.classIndex]?.[d.run]));
  });

  it('draws nothing before it is asked: a count of 10^12 yields its first case at once', () => {
    const first = drawCases(classes, 1e12, 1, sweepOf(users, 'mismatch')).next();
    expect(first.done).toBe(false);
    expect(first.value?.classIndex).toBe(-1);
  });
});
