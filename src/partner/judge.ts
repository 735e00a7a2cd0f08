// Judges the recorded traffic with every rule, and turns the verdicts into the check results every
// reporter reads (the RunResult shape of `run`), with the partner's offending requests as evidence.

import type { Redactor } from '../config/redact.js';
import { renderCurl } from '../http/curl.js';
import { recordMessage } from '../http/record.js';
import { decideOutcome, outcomeFields, type SkipDecision } from '../runner/outcome.js';
import type { CheckExchange, CheckResult, Observation } from '../runner/results.js';
import { missingStep, stepsDone } from './checklist.js';
import { NOT_EXERCISED, type Rule, type RuleObservation, type RuleVerdict } from './rules/rule.js';
import type { JudgeContext, PartnerRequest, Traffic, WebhookDelivery } from './traffic.js';

export interface Judged {
  rule: Rule;
  verdict: RuleVerdict;
  /** The rule itself threw: an engine error of this rule only; the session and the other rules go on. */
  error?: Error;
}

/**
 * Offences (and warnings) a verdict keeps past its judgement; the rest are counted (`moreFailures`,
 * `moreWarnings`). A flood that breaks a rule on every request made hundreds of thousands of them, each
 * redacted for the live console and again for the reports: seconds between a signal and the exit.
 */
const MAX_OFFENCES_KEPT = 50;

const isWarning = (o: RuleObservation): boolean => o.severity === 'warning';

function capped(verdict: RuleVerdict): RuleVerdict {
  const failures = verdict.observations.filter((o) => !isWarning(o));
  const warnings = verdict.observations.filter(isWarning);
  if (failures.length <= MAX_OFFENCES_KEPT && warnings.length <= MAX_OFFENCES_KEPT) return verdict;
  const moreFailures = (verdict.moreFailures ?? 0) + Math.max(0, failures.length - MAX_OFFENCES_KEPT);
  const moreWarnings = (verdict.moreWarnings ?? 0) + Math.max(0, warnings.length - MAX_OFFENCES_KEPT);
  return {
    ...verdict,
    observations: [...failures.slice(0, MAX_OFFENCES_KEPT), ...warnings.slice(0, MAX_OFFENCES_KEPT)],
    ...(moreFailures > 0 ? { moreFailures } : {}),
    ...(moreWarnings > 0 ? { moreWarnings } : {}),
  };
}

/**
 * A rule the traffic has not reached names the checklist step whose traffic would reach it, when that
 * step was not performed (checklist.ts): a session that skips a step ends incomplete naming it.
 */
function namingStep(rule: Rule, verdict: RuleVerdict, done: () => ReadonlySet<string>): RuleVerdict {
  if ((verdict.state !== 'pending' && verdict.state !== 'skipped') || verdict.unlock !== undefined) return verdict;
  if (!verdict.message.startsWith(NOT_EXERCISED)) return verdict;
  const missing = missingStep(rule.id, done());
  return missing
    ? { ...verdict, message: `${NOT_EXERCISED}${missing}; ${verdict.message.slice(NOT_EXERCISED.length)}` }
    : verdict;
}

export function judgeAll(rules: readonly Rule[], traffic: Traffic, ctx: JudgeContext): Judged[] {
  let done: ReadonlySet<string> | undefined;
  const stepsOf = (): ReadonlySet<string> => (done ??= stepsDone(traffic));
  return rules.map((rule) => {
    try {
      return { rule, verdict: capped(namingStep(rule, rule.judge(traffic, ctx), stepsOf)) };
    } catch (e) {
      const error = e instanceof Error ? e : new Error(String(e));
      return {
        rule,
        verdict: {
          state: ctx.final ? 'skipped' : 'pending',
          message: `engine error: ${error.name}: ${error.message}`,
          observations: [],
        },
        error,
      };
    }
  });
}

/** Evidence is the first offences; a client that breaks a rule a thousand times needs no thousand exchanges. */
const MAX_OFFENCES_SHOWN = 10;

function requestExchange(r: PartnerRequest, index: number, origin: string, redactor: Redactor): CheckExchange {
  const url = `${origin}${r.path}${r.query ? `?${r.query}` : ''}`;
  // A capped body shows its first bytes, an evicted one nothing (recorder.ts); the size is the whole body's.
  const body = r.bodyText === '' ? undefined : r.bodyText;
  const bytes = r.body ? r.body.bytes : body === undefined ? undefined : Buffer.byteLength(body);
  const held = recordMessage(r.headers, body, body === undefined ? undefined : bytes, redactor);
  if (r.body?.kept === 'capped') held.bodyTruncated = true;
  const request = { ...held, method: r.method, url: redactor.text(url) };
  const label = `partner request #${r.id}${r.injected ? ` (injected: ${r.injected})` : ''}`;
  const exchange: CheckExchange = {
    index,
    label,
    startedAt: new Date(r.at).toISOString(),
    durationMs: Math.max(0, r.answeredAt - r.at),
    request,
    curl: renderCurl({ method: r.method, url, headers: r.headers, ...(body !== undefined ? { body } : {}) }, redactor),
  };
  if (r.lost)
    exchange.transportError = {
      code: 'ANSWER_LOST',
      message: 'the sandbox executed the request and cut the connection before answering (injected)',
    };
  else
    exchange.response = {
      ...recordMessage(r.responseHeaders, r.responseText === '' ? undefined : r.responseText, undefined, redactor),
      status: r.status,
    };
  return exchange;
}

function deliveryExchange(d: WebhookDelivery, index: number, redactor: Redactor): CheckExchange {
  const description = JSON.stringify({
    event_id: d.eventId,
    event: d.event,
    run_id: d.runId,
    attempt: d.attempt,
    signature: d.wrongSignature ? 'deliberately wrong' : 'valid',
  });
  const exchange: CheckExchange = {
    index,
    label: `webhook delivery ${d.event} attempt ${d.attempt}${d.wrongSignature ? ' (bad signature)' : ''}`,
    startedAt: new Date(d.startedAt).toISOString(),
    durationMs: Math.max(0, d.answeredAt - d.startedAt),
    request: {
      headers: { 'content-type': 'application/json' },
      body: description,
      method: 'POST',
      url: redactor.text(d.url),
    },
    curl: `# a delivery the sandbox sent to the partner's endpoint (not reproducible without the webhook secret)`,
  };
  if (d.status === null)
    exchange.transportError = { code: 'NO_ANSWER', message: redactor.text(d.error ?? 'no answer') };
  else exchange.response = { headers: d.location ? { location: redactor.text(d.location) } : {}, status: d.status };
  return exchange;
}

const byIdOf = new WeakMap<readonly PartnerRequest[], Map<number, PartnerRequest>>();

/** The requests by id, built once per traffic (every rule's result reads it). */
function requestsById(traffic: Traffic): Map<number, PartnerRequest> {
  let byId = byIdOf.get(traffic.requests);
  if (!byId) {
    byId = new Map(traffic.requests.map((r) => [r.id, r]));
    byIdOf.set(traffic.requests, byId);
  }
  return byId;
}

/** The shown offences and warnings as observations, with the exchanges they point at (each request once). */
function shownObservations(
  shown: readonly Judged['verdict']['observations'][number][],
  traffic: Traffic,
  opts: { origin: string; redactor: Redactor },
): { observations: Observation[]; exchanges: CheckExchange[] } {
  const byId = requestsById(traffic);
  const exchanges: CheckExchange[] = [];
  const exchangeOf = new Map<number, number>();
  const observations: Observation[] = [];
  for (const seen of shown) {
    let last: number | undefined;
    for (const id of seen.requests) {
      const r = byId.get(id);
      if (!r) continue;
      let at = exchangeOf.get(id);
      if (at === undefined) {
        at = exchanges.length;
        exchangeOf.set(id, at);
        exchanges.push(requestExchange(r, at, opts.origin, opts.redactor));
      }
      last = at;
    }
    for (const d of seen.deliveries ?? []) {
      last = exchanges.length;
      exchanges.push(deliveryExchange(d, last, opts.redactor));
    }
    observations.push({
      ...(seen.severity ? { severity: seen.severity } : {}),
      message: opts.redactor.text(seen.message),
      spec: seen.spec,
      ...(seen.expected !== undefined ? { expected: opts.redactor.text(seen.expected) } : {}),
      ...(seen.received !== undefined ? { received: opts.redactor.text(seen.received) } : {}),
      ...(last !== undefined ? { exchange: last } : {}),
    });
  }
  return { observations, exchanges };
}

/** The counts of offences and warnings beyond those shown, as observations of their own. */
function notShownCounts(j: Judged, failures: number, warnings: number): Observation[] {
  const { rule, verdict } = j;
  const out: Observation[] = [];
  const offencesCount = failures + (verdict.moreFailures ?? 0);
  if (offencesCount > MAX_OFFENCES_SHOWN) {
    out.push({
      message: `${offencesCount - MAX_OFFENCES_SHOWN} more offence(s) not shown`,
      spec: rule.spec[0]!,
    });
  }
  // An advisory rule's offences are warnings: the count of those not shown is a warning too, never a failure.
  const warningsCount = warnings + (verdict.moreWarnings ?? 0);
  if (warningsCount > MAX_OFFENCES_SHOWN) {
    out.push({
      severity: 'warning',
      message: `${warningsCount - MAX_OFFENCES_SHOWN} more warning(s) not shown`,
      spec: rule.spec[0]!,
    });
  }
  return out;
}

export function toCheckResult(
  j: Judged,
  traffic: Traffic,
  opts: { origin: string; redactor: Redactor; durationMs: number },
): CheckResult {
  const { rule, verdict } = j;
  const failures = verdict.observations.filter((o) => !isWarning(o));
  const warnings = verdict.observations.filter(isWarning);
  const shown = [...failures.slice(0, MAX_OFFENCES_SHOWN), ...warnings.slice(0, MAX_OFFENCES_SHOWN)];
  const { observations, exchanges } = shownObservations(shown, traffic, opts);
  observations.push(...notShownCounts(j, failures.length, warnings.length));
  // The one outcome model (runner/outcome.ts): a rule asserts once it was exercised (passed, or an
  // offence or warning was seen); one the traffic never reached is a not-exercised skip with its hint
  // when the session provokes its situation, not-applicable with its declared reason when only the
  // partner's own choices create it (conditional), and one no traffic could reach without a flag
  // (webhooks without --webhook-url) a needs-input skip naming it.
  const exercised = verdict.state === 'passed' || verdict.state === 'failed' || verdict.state === 'warning';
  const reason = opts.redactor.text(verdict.message);
  const skip: SkipDecision | undefined =
    verdict.unlock !== undefined
      ? { kind: 'needs-input', reason, unlock: verdict.unlock }
      : rule.evidence === 'conditional'
        ? undefined
        : { kind: 'not-exercised', reason };
  const outcome = decideOutcome({
    declaration: rule,
    ending: j.error ? { kind: 'threw', error: j.error } : { kind: 'done' },
    asserted: exercised ? 1 : 0,
    observations,
    ...(exercised || !skip ? {} : { skip }),
  });
  const fields = outcomeFields(outcome);
  // The rule's own summary of a pass, a failure or a missing exercise reads better than the first
  // observation; an engine error and a situation that never arose say so in the outcome's words.
  const ownMessage = fields.status !== 'error' && fields.skipKind !== 'not-applicable';
  return {
    id: rule.id,
    title: rule.title,
    suite: rule.suite,
    spec: [...rule.spec],
    ...fields,
    message: opts.redactor.text(ownMessage ? verdict.message : fields.message),
    durationMs: opts.durationMs,
    observations,
    exchanges,
    ...(rule.advisory ? { advisory: true as const } : {}),
    evidence: rule.evidence,
  };
}
