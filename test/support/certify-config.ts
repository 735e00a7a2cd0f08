// The configuration a test certification runs with: its target and what it varies, the rest quiet
// (no report written, no reporter, every suite, no credit spent, a rate limit no test reaches).

import type { Config } from '../../src/config/config.js';

export function certifyConfig(over: Partial<Config> & Pick<Config, 'baseUrl' | 'partnerKey'>): Config {
  return {
    activationCodes: [],
    environment: 'auto',
    maxSpendCredits: 0,
    explore: 0,
    seed: 1,
    timeScale: 1,
    rateLimit: 6000,
    reportDir: '/nonexistent-not-written',
    reporters: [],
    suites: [],
    strict: false,
    exhaustLimits: false,
    ...over,
  };
}
