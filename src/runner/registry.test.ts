import { describe, expect, it } from 'vitest';
import type { CheckDefinition } from './check.js';
import { createRegistry, RegistryError } from './registry.js';

const check = (id: string, suite = id.split('.')[0]!): CheckDefinition => ({
  id,
  title: id,
  suite,
  spec: ['Authentication'],
  evidence: 'provoked',
  run: async () => undefined,
});

describe('createRegistry', () => {
  it('refuses duplicate ids', () => {
    expect(() => createRegistry([check('a.one'), check('a.one')], ['a'])).toThrow(
      new RegistryError('duplicate check id "a.one"'),
    );
  });

  it('refuses malformed ids', () => {
    for (const id of ['a', 'a.One', 'a..b', 'a.b_c', 'a.b.', ' a.b']) {
      expect(() => createRegistry([check(id, 'a')], ['a']), id).toThrow(/malformed/);
    }
  });

  it('refuses an id outside its suite and a suite outside the order', () => {
    expect(() => createRegistry([check('b.x', 'a')], ['a', 'b'])).toThrow(/must start with its suite/);
    expect(() => createRegistry([check('c.x')], ['a'])).toThrow(/not in the suite order/);
  });

  it('refuses a check citing no section', () => {
    expect(() => createRegistry([{ ...check('a.x'), spec: [] }], ['a'])).toThrow(/cites no spec section/);
  });

  it('refuses an evidence declaration that contradicts itself, for any command', () => {
    const refused =
      (extra: Partial<CheckDefinition>): (() => unknown) =>
      () =>
        createRegistry([{ ...check('a.x'), ...extra }], ['a']);
    expect(refused({ evidence: 'observed' as never })).toThrow(/declares evidence "observed", none of provoked/);
    expect(refused({ evidence: 'conditional' })).toThrow(/conditional without notApplicableWhen/);
    expect(refused({ evidence: 'conditional', notApplicableWhen: ' ' })).toThrow(/conditional without/);
    expect(refused({ notApplicableWhen: 'never' })).toThrow(/notApplicableWhen on a provoked check/);
    expect(refused({ evidence: 'input' })).toThrow(/input without what unlocks it/);
    expect(refused({ unlockedBy: '--url' })).toThrow(/provoked, but --url unlocks it/);
    expect(refused({ warns: ['a case', ''] })).toThrow(/an empty warning case/);
    // The consistent forms load.
    expect(refused({ evidence: 'input', unlockedBy: '--url' })).not.toThrow();
    expect(refused({ evidence: 'conditional', notApplicableWhen: 'no ref was sent' })).not.toThrow();
    expect(refused({ warns: ['a case'] })).not.toThrow();
  });

  it('validates a declaration of any command, not only run checks', () => {
    const rule = {
      id: 'a.rule',
      title: 'r',
      suite: 'a',
      spec: ['Authentication' as const],
      evidence: 'provoked' as const,
    };
    expect(createRegistry([rule], ['a']).get('a.rule')).toBe(rule);
    expect(() => createRegistry([{ ...rule, suite: 'b' }], ['a'])).toThrow(/not in the suite order/);
  });

  it('keeps the declared order within the suite order when asked', () => {
    const r = createRegistry([check('b.zeta'), check('a.beta'), check('b.alpha'), check('a.alpha')], ['b', 'a'], {
      order: 'as-declared',
    });
    expect(r.checks.map((c) => c.id)).toEqual(['b.zeta', 'b.alpha', 'a.beta', 'a.alpha']);
  });

  it('sorts by suite order then id, and selects by suite and text', () => {
    const r = createRegistry([check('b.zeta'), check('a.beta'), check('b.alpha'), check('a.alpha')], ['b', 'a']);
    expect(r.checks.map((c) => c.id)).toEqual(['b.alpha', 'b.zeta', 'a.alpha', 'a.beta']);
    expect(r.select({ suites: ['a'] }).map((c) => c.id)).toEqual(['a.alpha', 'a.beta']);
    expect(r.select({ grep: 'ALPHA' }).map((c) => c.id)).toEqual(['b.alpha', 'a.alpha']);
    expect(r.select({}).length).toBe(4);
  });
});
