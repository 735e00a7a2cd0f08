// Every rule the partner command judges, in report order.

import { decisionRules } from './decisions.js';
import { orgTokenRule } from './org-token.js';
import { pollingRules } from './polling.js';
import { contentTypeRule } from './requests.js';
import { retryRules } from './retries.js';
import type { Rule } from './rule.js';
import { secretRules } from './secrets.js';
import { webhookRules } from './webhooks.js';

export const PARTNER_SUITES = ['secrets', 'requests', 'retries', 'polling', 'decisions', 'org-token', 'webhooks'] as const;

/** `knownSecrets`: the partner key, webhook secret and org tokens the sandbox provisioned (looked for in URLs and bodies). */
export function partnerRules(knownSecrets: () => readonly string[]): Rule[] {
  return [...secretRules(knownSecrets), contentTypeRule, ...retryRules, ...pollingRules, ...decisionRules, orgTokenRule, ...webhookRules];
}

export type { Rule, RuleVerdict, RuleState, Offence } from './rule.js';
