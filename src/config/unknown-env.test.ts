import { describe, expect, it } from 'vitest';
import { editDistance, unknownEnvWarnings } from './unknown-env.js';

describe('unknown SVC_* variables', () => {
  it('warns once per unknown variable, in name order, naming the nearest known one', () => {
    const env = { SVC_STRICTT: '1', SVC_BASE_URL: 'x', PATH: '/bin', SVC_REPORT_DIRS: 'r' };
    expect(unknownEnvWarnings(env, ['SVC_STRICT', 'SVC_BASE_URL', 'SVC_REPORT_DIR', 'SVC_REPORTER'])).toEqual([
      'warning: SVC_REPORT_DIRS is not a svc-certify variable (did you mean SVC_REPORT_DIR?)',
      'warning: SVC_STRICTT is not a svc-certify variable (did you mean SVC_STRICT?)',
    ]);
  });

  it('says nothing when every SVC_* variable is known', () => {
    expect(unknownEnvWarnings({ SVC_STRICT: '1', HOME: '/' }, ['SVC_STRICT'])).toEqual([]);
  });

  it('measures edit distance', () => {
    expect([editDistance('kitten', 'sitting'), editDistance('', 'abc'), editDistance('same', 'same')]).toEqual([
      3, 3, 0,
    ]);
  });
});
