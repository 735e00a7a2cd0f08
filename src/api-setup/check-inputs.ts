// What a check of `run` is given of the operator's inputs (t.inputs), from the resolved configuration.

import type { Config } from '../config/config.js';
import type { CheckInputs } from './check.js';

/** `stop`: when every other check has ended (the exploration's cue to send the rest); absent when only the exploration runs. */
export function checkInputsOf(
  config: Config,
  partnerKey: string,
  stop: AbortSignal | undefined,
  onCut?: (graceMs: number) => void,
): CheckInputs {
  return {
    partnerKey,
    ...(config.expiredCode ? { expiredCode: config.expiredCode } : {}),
    ...(config.disabledOrgToken ? { disabledOrgToken: config.disabledOrgToken } : {}),
    ...(config.disabledPartnerKey ? { disabledPartnerKey: config.disabledPartnerKey } : {}),
    ...(config.otherPartnerKey ? { otherPartnerKey: config.otherPartnerKey } : {}),
    ...(config.webhookSecret ? { webhookSecret: config.webhookSecret } : {}),
    maxSpendCredits: config.maxSpendCredits,
    ...(config.realNamesEnabled ? { realNamesEnabled: true } : {}),
    ...(config.watchRetries ? { watchRetries: true } : {}),
    // The exploration fills what the other checks leave of the rate budget, while they run.
    ...(config.explore > 0
      ? {
          explore: {
            requests: config.explore,
            seed: config.seed,
            ...(stop ? { stop } : {}),
            ...(onCut ? { onCut } : {}),
          },
        }
      : {}),
  };
}
