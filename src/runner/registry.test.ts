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

  it('sorts by suite order then id, and selects by suite and text', () => {
    const r = createRegistry([check('b.zeta'), check('a.beta'), check('b.alpha'), check('a.alpha')], ['b', 'a']);
    expect(r.checks.map((c) => c.id)).toEqual(['b.alpha', 'b.zeta', 'a.alpha', 'a.beta']);
    expect(r.select({ suites: ['a'] }).map((c) => c.id)).toEqual(['a.alpha', 'a.beta']);
    expect(r.select({ grep: 'ALPHA' }).map((c) => c.id)).toEqual(['b.alpha', 'a.alpha']);
    expect(r.select({}).length).toBe(4);
  });
});
