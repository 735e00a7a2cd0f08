// A check in two steps: obtain what it judges, then judge it. The first step stops the check (having
// recorded why: a failure or a skip) by giving undefined.

import type { CheckContext, CheckDefinition } from '../../src/api-setup/check.js';

export function twoStepCheck<T>(
  def: Omit<CheckDefinition, 'run'>,
  subject: (t: CheckContext) => Promise<T | undefined>,
  judge: (t: CheckContext, subject: T) => Promise<void> | void,
): CheckDefinition {
  return {
    ...def,
    async run(t) {
      const s = await subject(t);
      if (s === undefined) return;
      await judge(t, s);
    },
  };
}
