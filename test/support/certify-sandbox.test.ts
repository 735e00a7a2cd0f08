import { describe, expect, it } from 'vitest';
import { certifySandbox, notPassed, resultOf } from './certify-sandbox.js';

describe('certifySandbox', () => {
  it('certifies a clean sandbox restricted to some checks, and the same checks fail with a fault', async () => {
    const ids = ['auth.unknown-partner-key-refused-401'];
    const clean = await certifySandbox({ ids });
    expect(notPassed(clean)).toEqual([]);
    expect(clean.checks.map((c) => c.id)).toEqual(ids);
    const broken = await certifySandbox({ ids, faults: ['auth.unknown-key-wrong-code'] });
    expect(resultOf(broken, ids[0]!).status).toBe('failed');
  });
});
