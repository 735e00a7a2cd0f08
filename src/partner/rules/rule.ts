// A rule of the partner's duties, judged over the recorded traffic. Pure: the same traffic and context
// give the same verdict, so the live checklist can re-judge after every request and the final judgement
// is the same function with `final: true`.

import type { SpecSection } from '../../runner/spec-section-names.js';
import type { JudgeContext, Traffic, WebhookDelivery } from '../traffic.js';

export type RuleState = 'pending' | 'passed' | 'failed' | 'skipped' | 'warning';

/** One breach of a rule, with the partner's requests (ids) or the deliveries that show it. */
export interface Offence {
  message: string;
  expected?: string;
  received?: string;
  requests: number[];
  deliveries?: WebhookDelivery[];
}

export interface RuleVerdict {
  state: RuleState;
  /** passed: what proved it; failed: the first offence; pending/skipped: what to do to exercise the rule. */
  message: string;
  offences: Offence[];
  /** What the spec states without a MUST (or reads two ways) and the traffic did otherwise: a `warning`, never a failure. */
  warnings?: Offence[];
  /** Requests that exercised the rule without breaking it (shown as context for a pass, first few only). */
  proof?: number[];
}

export interface Rule {
  /** `<suite>.<property asserted>`. */
  id: string;
  title: string;
  suite: string;
  /** Spec headings (typed: a mistyped section does not compile). */
  spec: SpecSection[];
  /** What the partner does so that the traffic exercises the rule ("start a cert-slow run and keep it on screen"). */
  hint: string;
  judge(traffic: Traffic, ctx: JudgeContext): RuleVerdict;
}

/**
 * The common outcome: any offence fails; otherwise passed once exercised; otherwise pending with the hint
 * while the session runs, and skipped with it at the end.
 */
export function settle(
  rule: Pick<Rule, 'hint'>,
  ctx: JudgeContext,
  r: { offences: Offence[]; warnings?: Offence[]; exercised: boolean; passMessage: string; proof?: number[] },
): RuleVerdict {
  const warnings = r.warnings ?? [];
  if (r.offences.length > 0) {
    const more = r.offences.length > 1 ? ` (and ${r.offences.length - 1} more)` : '';
    return { state: 'failed', message: `${r.offences[0]!.message}${more}`, offences: r.offences, warnings };
  }
  if (warnings.length > 0) return { state: 'warning', message: warnings[0]!.message, offences: [], warnings };
  if (r.exercised) return { state: 'passed', message: r.passMessage, offences: [], ...(r.proof ? { proof: r.proof.slice(0, 5) } : {}) };
  return { state: ctx.final ? 'skipped' : 'pending', message: `not exercised: ${rule.hint}`, offences: [] };
}
