import { describe, expect, it } from 'vitest';
import { cleanContext } from './match-rules.js';
import { DISGUISES, disguisedLeaks } from '../../test/support/secret-disguises.js';

// The 24 characters a finding's excerpt shows before a match may be the tail of another key, under any
// disguise: what the excerpt shows of it never holds 16 characters of that key in any reading.
const OTHER = `spk_live_${'9f8e7d6c5b4a3921'.repeat(3)}`;

describe('the context of an excerpt', () => {
  it.each(Object.keys(DISGUISES))('shows no 16 characters of a key %s just before a match', (name) => {
    const disguised = DISGUISES[name]?.(OTHER) ?? OTHER;
    for (const end of [disguised.length, disguised.length - 7, disguised.length - 20]) {
      const before = disguised.slice(Math.max(0, end - 24), end);
      const out = cleanContext(before);
      expect(disguisedLeaks(out, OTHER), `${before} → ${out}`).toEqual([]);
    }
  });

  it('leaves ordinary code and prose as it was', () => {
    const text = 'const response = await fetch(url); // the answer';
    expect(cleanContext(text)).toBe(text);
  });
});
