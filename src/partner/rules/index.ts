// Every rule the partner command judges, in report order, and their registry (runner/registry.ts): the
// same validation of ids, suites and evidence declarations as every other command's checks.

import { createRegistry, type CheckRegistry, type RegistryOrder } from '../../runner/registry.js';
import { candidateIdsRule } from './candidate-ids.js';
import { decisionHistoryRules } from './decision-history.js';
import { decisionRetryRules } from './decision-retries.js';
import { decisionRules } from './decisions.js';
import { decisionTimeRules } from './decision-times.js';
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
import { repeatedEventRule } from './event-dedup.js';

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
    ...decisionTimeRules,
    unknownStatusRule,
    unknownErrorCodeRule,
    extraFieldsFlowRule,
    orgTokenRule,
    ...webhookRules,
    repeatedEventRule,
  ];
}

/**
 * The rules, validated: a malformed or duplicate id, an unknown suite or an inconsistent evidence
 * declaration throws here. `as-declared` keeps the order of partnerRules (the session's report order);
 * the default lists them as every listing does (suite order, then id).
 */
export function partnerRegistry(
  knownSecrets: () => readonly string[],
  order: RegistryOrder = 'suite-then-id',
): CheckRegistry<Rule> {
  return createRegistry(partnerRules(knownSecrets), PARTNER_SUITES, { order });
}

export type { Rule, RuleVerdict } from './rule.js';
