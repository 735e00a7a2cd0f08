// The gate profile (--gate): a run for every deployment that spends nothing scarce. It redeems no
// activation code (the organization of --org-token is enough), never exhausts a limit, follows no real
// run (a cold run keeps working for several minutes, the spec says) and waits out no fixture of minutes,
// so at the spec's pace (time scale 1) it ends within 90 s against a conformant server. What it leaves out is "certification only": each
// such check ends `skipped` (deselected) with a reason that starts with CERTIFICATION_ONLY, and every
// report lists them, grouped by why. A passed gate is never `certified` (runner/verdict.ts).
//
// Two places decide it, from one set of reasons: the plan, from what a check declares it needs
// (gateSkip), and the shared setup, when a check asks for a real run or cert-slow (GATE_REASONS).

import type { Need } from './needs.js';
import type { SkipDecision } from '../runner/outcome.js';
import { codeRolesOf } from './code-plan.js';
import { codesNeeded, unmetNeed, type NeedState } from './needs.js';
import type { CertificationOnly, CheckResult } from '../runner/results.js';

/** Every reason of a check the gate leaves out starts with this, in its skip message. */
export const CERTIFICATION_ONLY = 'certification only: ';

/** Why the gate leaves a check to a full certification. */
export const GATE_REASONS = {
  code: 'spends an activation code (the gate works in the organization of --org-token)',
  limits: 'uses up the rate limit or the daily run quota (--exhaust-limits)',
  realRun: "follows a real run to its end (a cold run keeps working for several minutes, the spec's Limits)",
  moreRealRuns: 'starts a second or third real run (the gate starts at most one)',
  certSlow: "waits out cert-slow's 3 minutes",
  retry: 'waits for a webhook retry, which the spec sends after 1 minute at the earliest',
  quietWatch: 'watches longer than the gate lasts for an event that must not come',
  english: 'reads a fixture again in English (the gate judges the default language, Hebrew)',
  budget:
    "a long chain of requests (repeated reveals or decisions, then a watch): at 120 requests a minute the gate's 90 s hold the rest",
  sandboxTools:
    "judges the sandbox's test headers (x-svc-sandbox-simulate, x-svc-sandbox-reveal-price): the gate's rate budget goes to the API itself",
} as const;

/**
 * Checks the gate leaves out by name, for what no need declares: a wait of the spec's own longer than
 * the gate (a fixture's minutes, a retry's minute, a watch for an event that must not come), or the
 * requests of a second reading, which the rate budget of the gate's 90 s cannot hold with the rest
 * (the pacer keeps 90 % of 120 requests a minute; see bench/certify-bench.ts --gate).
 */
export const GATE_LEAVES_OUT: Readonly<Record<string, string>> = {
  'fixtures.cert-slow.runs-three-minutes-then-completes': GATE_REASONS.certSlow,
  'jobs.run-keeps-started-description': GATE_REASONS.realRun,
  'runs-start.rejection-starts-nothing': GATE_REASONS.quietWatch,
  'webhooks.bad-signature-not-retried': GATE_REASONS.quietWatch,
  'webhooks.retried-after-failure': GATE_REASONS.retry,
  'webhooks.retry-same-event-id': GATE_REASONS.retry,
  'webhooks.redirect-not-followed': GATE_REASONS.retry,
  'webhooks.late-ack-redelivered': GATE_REASONS.retry,
  'fixtures.cert-empty.read-matches-table-en': GATE_REASONS.english,
  'fixtures.cert-extra-fields.read-matches-table-en': GATE_REASONS.english,
  'fixtures.cert-failed.read-matches-table-en': GATE_REASONS.english,
  'fixtures.cert-notice-unknown.read-matches-table-en': GATE_REASONS.english,
  'fixtures.cert-notices-all.read-matches-table-en': GATE_REASONS.english,
  'fixtures.cert-webhook.read-matches-table-en': GATE_REASONS.english,
  'reveal.sandbox-contact-same-across-runs': GATE_REASONS.budget,
  'webhooks.candidate-revealed-once': GATE_REASONS.budget,
  'decisions.duplicates-counted': GATE_REASONS.budget,
  'decisions.new-occurred-at-is-new-entry': GATE_REASONS.budget,
  'sandbox.reveal-after-price-override-charges-zero': GATE_REASONS.sandboxTools,
  'sandbox.reveal-price-out-of-range-422': GATE_REASONS.sandboxTools,
  'sandbox.reveal-price-override': GATE_REASONS.sandboxTools,
  'sandbox.simulate-authenticated-first': GATE_REASONS.sandboxTools,
  'sandbox.simulate-insufficient-credits': GATE_REASONS.sandboxTools,
  'sandbox.simulate-internal-error': GATE_REASONS.sandboxTools,
  'sandbox.simulate-invalid-value-422': GATE_REASONS.sandboxTools,
  'sandbox.simulate-on-post': GATE_REASONS.sandboxTools,
  'sandbox.simulate-rate-limit-unavailable': GATE_REASONS.sandboxTools,
  'sandbox.simulate-rate-limited': GATE_REASONS.sandboxTools,
  'sandbox.simulated-unavailable-stores-nothing': GATE_REASONS.sandboxTools,
};

/** The skip of a check the gate leaves out, for one of GATE_REASONS or an input the gate was not given. */
export function certificationOnly(why: string): SkipDecision {
  return { kind: 'deselected', reason: `${CERTIFICATION_ONLY}${why}` };
}

/**
 * Whether the plan leaves a check out of the gate: by name (GATE_LEAVES_OUT), or from its needs: a code, an exhausted limit, or an
 * input the gate was not given (a gate with only an org token must pass; the input's flag still runs
 * the check, in the gate too). Environment needs keep their `not-applicable`.
 */
export function gateSkip(
  check: { id: string; needs?: readonly Need[] | undefined },
  state: NeedState,
): SkipDecision | undefined {
  const { needs } = check;
  const named = GATE_LEAVES_OUT[check.id];
  if (named !== undefined) return certificationOnly(named);
  if (codeRolesOf(needs, true).length > 0 || codesNeeded(needs) > 0) return certificationOnly(GATE_REASONS.code);
  if (needs?.includes('exhaust-limits')) return certificationOnly(GATE_REASONS.limits);
  for (const need of needs ?? []) {
    const unmet = unmetNeed(need, state);
    if (unmet?.kind === 'needs-input') return certificationOnly(`${unmet.reason} (not given to the gate)`);
  }
  return undefined;
}

/**
 * A check's result as the gate reports it: a skip for an input the gate was not given (a check that
 * found out only while running, such as the other partner's key) is certification only too, so a
 * gate with an org token alone ends passed, naming what a certification would need.
 */
export function asGateResult(check: CheckResult): CheckResult {
  if (check.status !== 'skipped' || check.skipKind !== 'needs-input') return check;
  const { unlock: _unlock, ...rest } = check;
  return {
    ...rest,
    skipKind: 'deselected',
    message: `${CERTIFICATION_ONLY}${check.message} (not given to the gate)`,
  };
}

/** The checks a gate left to a full certification, grouped by why, in report order. */
export function certificationOnlyOf(checks: readonly CheckResult[]): CertificationOnly[] {
  const groups = new Map<string, CertificationOnly>();
  for (const c of checks) {
    if (c.status !== 'skipped' || c.skipKind !== 'deselected' || !c.message.startsWith(CERTIFICATION_ONLY)) continue;
    const why = c.message.slice(CERTIFICATION_ONLY.length);
    const group = groups.get(why) ?? { why, checks: [] };
    group.checks.push(c.id);
    groups.set(why, group);
  }
  return [...groups.values()];
}
