// Every rule the partner command judges, in report order.

import { candidateIdsRule } from './candidate-ids.js';
import { decisionHistoryRules } from './decision-history.js';
import { decisionRetryRules } from './decision-retries.js';
import { decisionRules } from './decisions.js';
import { noRetryAfter402Rule, unknownErrorCodeRule } from './error-handling.js';
import { headerRules } from './headers.js';
import { extraFieldsFlowRule } from './extra-fields.js';
import { descriptionRule } from './jobs.js';
import { orgTokenRule } from './org-token.js';
import { pollingRules } from './polling.js';
import { contentTypeRule } from './requests.js';
import { retryRules } from './retries.js';
import type { Rule } from './rule.js';
import { secretRules } from './secrets.js';
import { unknownStatusRule } from './unknown-status.js';
import { webhookRules } from './webhooks.js';

export const PARTNER_SUITES = [
  'secrets',
  'requests',
  'retries',
  'polling',
  'decisions',
  'unknown-values',
  'org-token',
  'webhooks',
] as const;

/** `knownSecrets`: the partner key, webhook secret and org tokens the sandbox provisioned (looked for in URLs and bodies). */
export function partnerRules(knownSecrets: () => readonly string[]): Rule[] {
  return [
    ...secretRules(knownSecrets),
    contentTypeRule,
    ...headerRules,
    descriptionRule,
    candidateIdsRule,
    ...retryRules,
    noRetryAfter402Rule,
    ...pollingRules,
    ...decisionRules,
    ...decisionRetryRules,
    ...decisionHistoryRules,
    unknownStatusRule,
    unknownErrorCodeRule,
    extraFieldsFlowRule,
    orgTokenRule,
    ...webhookRules,
  ];
}

export type { Rule, RuleVerdict, RuleState, Offence } from './rule.js';
