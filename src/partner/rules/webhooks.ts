// The partner's webhook endpoint as the sandbox's deliveries found it (Events: "A 2xx answer means
// delivered… no answer within 10 seconds is retried"; delivery rule 2: any 3xx is a failed attempt;
// Signature: "answers 401 without processing on mismatch"; "A bad-signature test delivery must be
// answered non-2xx").

import { S } from '../../spec/sections.js';
import type { JudgeContext, Traffic, WebhookDelivery } from '../traffic.js';
import { seconds } from './retry-chains.js';
import { ruleVerdict, type TrafficObservation, type Rule, type RuleVerdict } from './rule.js';

const is2xx = (s: number | null) => s !== null && s >= 200 && s < 300;
const is3xx = (s: number | null) => s !== null && s >= 300 && s < 400;

function answer(d: WebhookDelivery): string {
  return d.status === null ? `no answer (${d.error ?? `none within ${seconds(d.ackTimeoutMs)}`})` : String(d.status);
}

function noWebhook(ctx: JudgeContext): RuleVerdict | undefined {
  if (ctx.webhookRegistered) return undefined;
  return {
    state: ctx.final ? 'skipped' : 'pending',
    message:
      'no webhook registered: start svc-certify partner with --webhook-url (and --allow-loopback-webhooks for a local endpoint)',
    observations: [],
    unlock: '--webhook-url',
  };
}

function requestedTests(traffic: Traffic, valid: boolean): number {
  return traffic.requests.filter(
    (r) =>
      r.endpoint === 'webhook-test' &&
      r.status === 202 &&
      ((r.responseJson as { valid_signature?: unknown } | undefined)?.valid_signature === false) !== valid,
  ).length;
}

const validDeliveriesRule: Rule = {
  id: 'webhooks.valid-deliveries-acknowledged-2xx',
  title: 'Every valid delivery is acknowledged with 2xx within 10 s',
  suite: 'webhooks',
  evidence: 'input',
  unlockedBy: '--webhook-url',
  spec: [S.events],
  hint: 'start a cert-webhook run, or ask for a test delivery: POST /sandbox/webhooks/test {"event":"run_completed"}',
  judge(traffic, ctx) {
    const skip = noWebhook(ctx);
    if (skip) return skip;
    const valid = traffic.deliveries.filter((d) => !d.wrongSignature);
    const offences: TrafficObservation[] = [];
    // A 3xx is judged by webhooks.valid-deliveries-never-redirected.
    for (const d of valid) {
      if (is2xx(d.status) || is3xx(d.status)) continue;
      offences.push({
        message: `valid ${d.event} delivery ${d.eventId} (attempt ${d.attempt}) answered ${answer(d)}`,
        expected: `2xx within 10 s (${seconds(d.ackTimeoutMs)} here)`,
        received: answer(d),
        requests: [],
        deliveries: [d],
      });
    }
    const verdict = ruleVerdict(validDeliveriesRule, ctx, {
      offences,
      exercised: valid.length > 0,
      passMessage: `${valid.length} valid deliver${valid.length === 1 ? 'y' : 'ies'} acknowledged with 2xx`,
    });
    if (verdict.state === 'pending' && requestedTests(traffic, true) > 0)
      return { ...verdict, message: 'a test delivery was requested: waiting for it to be sent' };
    return verdict;
  },
};

const noRedirectRule: Rule = {
  id: 'webhooks.valid-deliveries-never-redirected',
  title: 'A valid delivery is never answered with 3xx',
  suite: 'webhooks',
  evidence: 'input',
  unlockedBy: '--webhook-url',
  spec: [S.events],
  hint: validDeliveriesRule.hint,
  judge(traffic, ctx) {
    const skip = noWebhook(ctx);
    if (skip) return skip;
    const valid = traffic.deliveries.filter((d) => !d.wrongSignature);
    const offences: TrafficObservation[] = valid
      .filter((d) => is3xx(d.status))
      .map((d) => ({
        message: `valid ${d.event} delivery ${d.eventId} answered ${d.status}${d.location ? ` (Location: ${d.location})` : ''}: redirects are never followed`,
        expected: '2xx',
        received: String(d.status),
        requests: [],
        deliveries: [d],
      }));
    return ruleVerdict(noRedirectRule, ctx, {
      offences,
      exercised: valid.length > 0,
      passMessage: `${valid.length} valid deliver${valid.length === 1 ? 'y' : 'ies'}, none answered 3xx`,
    });
  },
};

const badSignatureRule: Rule = {
  id: 'webhooks.bad-signature-refused',
  title: 'The bad-signature test delivery is answered 401',
  suite: 'webhooks',
  evidence: 'input',
  unlockedBy: '--webhook-url',
  spec: [S.events, S.webhookTest],
  hint: 'ask for a bad-signature test delivery: POST /sandbox/webhooks/test {"event":"run_completed","valid_signature":false}',
  judge(traffic, ctx) {
    const skip = noWebhook(ctx);
    if (skip) return skip;
    const bad = traffic.deliveries.filter((d) => d.wrongSignature);
    // Decided reading: "answers `401` without processing on mismatch" is explicit, and "must be answered
    // non-2xx" of the test delivery is the weaker duty a 401 satisfies; so only 401 passes.
    const offences: TrafficObservation[] = bad
      .filter((d) => d.status !== 401)
      .map((d) => ({
        message: `bad-signature ${d.event} delivery ${d.eventId} answered ${answer(d)}: the receiver "answers \`401\` without processing on mismatch"`,
        expected: '401',
        received: answer(d),
        requests: [],
        deliveries: [d],
      }));
    const verdict = ruleVerdict(badSignatureRule, ctx, {
      offences,
      exercised: bad.length > 0,
      passMessage: `${bad.length} bad-signature deliver${bad.length === 1 ? 'y' : 'ies'} answered 401`,
    });
    if (verdict.state === 'pending' && requestedTests(traffic, false) > 0)
      return { ...verdict, message: 'a bad-signature test delivery was requested: waiting for it to be sent' };
    return verdict;
  },
};

export const webhookRules: Rule[] = [validDeliveriesRule, noRedirectRule, badSignatureRule];
