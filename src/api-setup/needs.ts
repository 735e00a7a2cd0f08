// Declared needs of a check against what this certification has. An unmet need skips the check
// with a reason that names the flag and the environment variable that would provide it, and a kind:
// `needs-input` (a flag would run it: the verdict is incomplete) or `not-applicable` (this environment
// has no such thing: certified regardless).

import type { SkipDecision } from '../runner/outcome.js';

/** Inputs a check may need; an unmet need skips the check with a reason naming the flag. */
export type Need =
  | 'org' // an organization: --org-token, or one activation code to redeem
  | 'activation-code' // one more unused activation code beyond the primary organization's
  | 'two-activation-codes' // two more unused codes (e.g. redeem + external_id_taken)
  // Planned codes (code-plan.ts): by importance, and the organizations they create reused.
  | 'second-org' // the organization the typed redemption creates (isolation checks)
  | 'typed-redemption' // a code redeemed as typed (lower case, spaces), then again (single use)
  | 'redemption' // a successful redeem answer: the primary organization's, with --org-token the typed one's
  | 'taken-redemption' // a code first redeemed with an external_id already taken
  | 'fresh-org' // a code for an untouched organization (its daily run quota)
  | 'expired-code'
  | 'disabled-org-token'
  | 'disabled-partner-key'
  | 'webhook-receiver' // --webhook-secret and a receiver reachable from the target
  | 'no-webhook-registered' // the user states no webhook URL is registered for the partner (unmet by default)
  | 'sandbox' // the target is the sandbox
  | 'production' // the target is production
  | 'exhaust-limits' // --exhaust-limits
  | 'spend-credits'; // production and --max-spend-credits > 0

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

const input = (reason: string, unlock: string): SkipDecision => ({ kind: 'needs-input', reason, unlock });
const notApplicable = (reason: string): SkipDecision => ({ kind: 'not-applicable', reason });

/** Why a need is unmet (and what kind of skip that is), or undefined. Activation-code needs are settled by allocation. */
export function unmetNeed(need: Need, s: NeedState): SkipDecision | undefined {
  switch (need) {
    case 'org':
      return s.hasOrgToken || s.activationCodes > 0
        ? undefined
        : input(
            'needs an organization: --org-token or SVC_ORG_TOKEN, or an activation code (--activation-code or SVC_ACTIVATION_CODES)',
            '--org-token or an activation code',
          );
    case 'activation-code':
    case 'two-activation-codes':
    case 'second-org':
    case 'typed-redemption':
    case 'redemption':
    case 'taken-redemption':
    case 'fresh-org':
      return undefined;
    case 'expired-code':
      return s.expiredCode
        ? undefined
        : input('needs an expired activation code: --expired-code or SVC_EXPIRED_CODE', '--expired-code');
    case 'disabled-org-token':
      return s.disabledOrgToken
        ? undefined
        : input(
            'needs the org token of a disabled organization: --disabled-org-token or SVC_DISABLED_ORG_TOKEN',
            '--disabled-org-token',
          );
    case 'disabled-partner-key':
      return s.disabledPartnerKey
        ? undefined
        : input(
            'needs the key of a disabled partner: --disabled-partner-key or SVC_DISABLED_PARTNER_KEY',
            '--disabled-partner-key',
          );
    case 'webhook-receiver':
      return s.webhookReceiver
        ? undefined
        : input(
            'needs a webhook receiver: --webhook-secret or SVC_WEBHOOK_SECRET, with --webhook-public-url or SVC_WEBHOOK_PUBLIC_URL reaching --webhook-listen',
            '--webhook-secret (with --webhook-public-url)',
          );
    case 'no-webhook-registered':
      if (s.noWebhookRegistered) return undefined;
      // Deliveries reach the receiver: a webhook is registered, so this check has nothing to apply to.
      return s.webhookReceiver
        ? notApplicable(
            'applies only when no webhook URL is registered for the partner; one is (deliveries reach the receiver)',
          )
        : input(
            'applies only when no webhook URL is registered for the partner; the certifier cannot see that, so state it with --webhook-not-registered',
            '--webhook-not-registered (when none is registered)',
          );
    case 'sandbox':
      return s.environment === 'sandbox'
        ? undefined
        : notApplicable(
            'applies to the sandbox only; the target is production (x-svc-environment absent, or --environment / SVC_ENVIRONMENT)',
          );
    case 'production':
      return s.environment === 'production'
        ? undefined
        : notApplicable(
            'applies to production only; the target is the sandbox (x-svc-environment: sandbox, or --environment / SVC_ENVIRONMENT)',
          );
    case 'exhaust-limits':
      return s.exhaustLimits
        ? undefined
        : input('uses up the rate limit or the daily run quota: enable with --exhaust-limits', '--exhaust-limits');
    case 'spend-credits':
      if (s.environment !== 'production') return notApplicable('spends credits, which only production does');
      return s.maxSpendCredits > 0
        ? undefined
        : input(
            'would spend credits: allow with --max-spend-credits N or SVC_MAX_SPEND_CREDITS',
            '--max-spend-credits',
          );
  }
}

/** How many activation codes beyond the primary organization's a check needs. */
export function codesNeeded(needs: readonly Need[] | undefined): number {
  if (!needs) return 0;
  if (needs.includes('two-activation-codes')) return 2;
  return needs.includes('activation-code') ? 1 : 0;
}

/**
 * The needs an operator input meets (a flag, or activation codes beyond the primary organization's),
 * with what unlocks each: a check declaring one is an `input` check (runner/evidence.ts). `org` is not
 * among them (every certification has an organization), nor are the environment needs (their skip is
 * `not-applicable`) or `redemption` (the primary organization's redeem gives it).
 */
const INPUT_NEEDS: Partial<Record<Need, string>> = {
  'activation-code': 'one more activation code',
  'two-activation-codes': 'two more activation codes',
  'second-org': 'an activation code for a second organization',
  'typed-redemption': 'an activation code to redeem as typed',
  'taken-redemption': 'an activation code to redeem with a taken external_id',
  'fresh-org': 'an activation code for an untouched organization',
  'expired-code': '--expired-code',
  'disabled-org-token': '--disabled-org-token',
  'disabled-partner-key': '--disabled-partner-key',
  'webhook-receiver': '--webhook-secret (with --webhook-public-url)',
  'no-webhook-registered': '--webhook-not-registered',
  'exhaust-limits': '--exhaust-limits',
  'spend-credits': '--max-spend-credits',
};

/** What unlocks a check: its input needs, else what it declares itself; undefined when no input does. */
export function unlockOf(needs: readonly Need[] | undefined, unlockedBy: string | undefined): string | undefined {
  const inputs = (needs ?? []).map((n) => INPUT_NEEDS[n]).filter((u): u is string => u !== undefined);
  if (unlockedBy !== undefined) inputs.push(unlockedBy);
  return inputs.length > 0 ? [...new Set(inputs)].join(', ') : undefined;
}
