import { describe, expect, it } from 'vitest';
import type { CheckDefinition } from './check.js';
import { createRunRegistry } from './run-registry.js';

const check = (extra: Partial<CheckDefinition>): CheckDefinition => ({
  id: 'a.x',
  title: 'a.x',
  suite: 'a',
  spec: ['Authentication'],
  evidence: 'provoked',
  run: async () => undefined,
  ...extra,
});

describe('createRunRegistry', () => {
  it('reads what unlocks a check of run from its input needs', () => {
    const refused = (extra: Partial<CheckDefinition>) => () => createRunRegistry([check(extra)], ['a']);
    expect(refused({ needs: ['expired-code'] })).toThrow(/provoked, but --expired-code unlocks it/);
    expect(refused({ evidence: 'input', needs: ['expired-code'] })).not.toThrow();
    // Environment needs unlock nothing: such a check is provoked.
    expect(refused({ needs: ['org', 'sandbox'], warns: ['a case'] })).not.toThrow();
    expect(refused({ evidence: 'input', needs: ['sandbox'] })).toThrow(/input without what unlocks it/);
  });
});
