// Declared needs of a check against what this certification has. An unmet need skips the check
// with a reason that names the flag and the environment variable that would provide it.

import type { Need } from './check.js';

export interface NeedState {
  hasOrgToken: boolean;
  activationCodes: number;
  expiredCode: boolean;
  disabledOrgToken: boolean;
  disabledPartnerKey: boolean;
  webhookReceiver: boolean;
  /** The user states that no webhook is registered for the partner (unknowable over HTTP). */
  noWebhookRegistered?: boolean;
  environment: 'sandbox' | 'production';
  exhaustLimits: boolean;
  maxSpendCredits: number;
}

/** The reason a need is unmet, or undefined. Activation-code needs are settled by allocation. */
export function unmetNeed(need: Need, s: NeedState): string | undefined {
  switch (need) {
    case 'org':
      return s.hasOrgToken || s.activationCodes > 0
        ? undefined
        : 'needs an organization: --org-token or SVC_ORG_TOKEN, or an activation code (--activation-code or SVC_ACTIVATION_CODES)';
    case 'activation-code':
    case 'two-activation-codes':
    case 'second-org':
    case 'typed-redemption':
    case 'redemption':
    case 'taken-redemption':
    case 'fresh-org':
      return undefined;
    case 'expired-code':
      return s.expiredCode ? undefined : 'needs an expired activation code: --expired-code or SVC_EXPIRED_CODE';
    case 'disabled-org-token':
      return s.disabledOrgToken ? undefined : 'needs the org token of a disabled organization: --disabled-org-token or SVC_DISABLED_ORG_TOKEN';
    case 'disabled-partner-key':
      return s.disabledPartnerKey
        ? undefined
        : 'needs the key of a disabled partner: --disabled-partner-key or SVC_DISABLED_PARTNER_KEY';
    case 'webhook-receiver':
      return s.webhookReceiver
        ? undefined
        : 'needs a webhook receiver: --webhook-secret or SVC_WEBHOOK_SECRET, with --webhook-public-url or SVC_WEBHOOK_PUBLIC_URL reaching --webhook-listen';
    case 'no-webhook-registered':
      return s.noWebhookRegistered
        ? undefined
        : 'applies only when no webhook URL is registered for the partner; the certifier cannot see that, so state it with --webhook-not-registered';
    case 'sandbox':
      return s.environment === 'sandbox'
        ? undefined
        : 'applies to the sandbox only; the target is production (x-svc-environment absent, or --environment / SVC_ENVIRONMENT)';
    case 'production':
      return s.environment === 'production'
        ? undefined
        : 'applies to production only; the target is the sandbox (x-svc-environment: sandbox, or --environment / SVC_ENVIRONMENT)';
    case 'exhaust-limits':
      return s.exhaustLimits ? undefined : 'uses up the rate limit or the daily run quota: enable with --exhaust-limits';
    case 'spend-credits':
      if (s.environment !== 'production') return 'spends credits, which only production does';
      return s.maxSpendCredits > 0 ? undefined : 'would spend credits: allow with --max-spend-credits N or SVC_MAX_SPEND_CREDITS';
  }
}

/** How many activation codes beyond the primary organization's a check needs. */
export function codesNeeded(needs: readonly Need[] | undefined): number {
  if (!needs) return 0;
  if (needs.includes('two-activation-codes')) return 2;
  return needs.includes('activation-code') ? 1 : 0;
}
