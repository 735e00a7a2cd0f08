// A rule of the partner's duties, judged over the recorded traffic. Pure: the same traffic and context
// give the same verdict, so the live checklist can re-judge after every request and the final judgement
// is the same function with `final: true`.

import { SECTION_APART, type Finding, type Readings } from '../../runner/assertions.js';
import type { CheckDeclaration } from '../../runner/check-declaration.js';
import type { SpecSection } from '../../spec/section-names.js';
import type { JudgeContext, Traffic, WebhookDelivery } from '../traffic.js';

export type RuleState = 'pending' | 'passed' | 'failed' | 'skipped' | 'warning';

/**
 * What a rule saw in the traffic that does not hold, before it is recorded as a failure or a warning: a
 * finding as every check writes it (runner/assertions.ts: what was received and what the spec expects),
 * with the partner's requests (ids) or the deliveries that show it.
 */
interface TrafficFinding extends Finding {
  expected?: string;
  received?: string;
  /** The section it enforces, when not the rule's first. */
  spec?: SpecSection;
  requests: number[];
  deliveries?: WebhookDelivery[];
}

/**
 * A traffic finding; a warning where the spec reads two ways carries its two readings as fields (the
 * `reading` and `otherReading` of every check's `warn`), which the verdict words into the message.
 */
export type TrafficObservation = TrafficFinding & (Readings | { reading?: never; otherReading?: never; after?: never });

/**
 * An observation as every check of every command records it (runner/results.ts, `Observation`): received,
 * expected, the spec section, and `severity: 'warning'` where the spec states the rule without a MUST
 * or reads two ways (the message says which reading was taken); with the traffic that shows it.
 */
export interface RuleObservation extends TrafficFinding {
  spec: SpecSection;
  severity?: 'warning';
}

export interface RuleVerdict {
  state: RuleState;
  /** passed: what proved it; failed: the first failure; pending/skipped: what to do to exercise the rule. */
  message: string;
  /** The failures, then the warnings (empty for a pass and for a rule not exercised yet). */
  observations: RuleObservation[];
  /** Failures and warnings past those kept (the judge keeps the first few of a flood's thousands). */
  moreFailures?: number;
  moreWarnings?: number;
  /** Requests that exercised the rule without breaking it (shown as context for a pass, first few only). */
  proof?: number[];
  /**
   * pending/skipped only: the flag that lets the traffic exercise the rule at all ("--webhook-url"): no
   * traffic of this session can, so the skip is `needs-input`; absent, it is `not-exercised`.
   */
  unlock?: string;
}

/**
 * A rule: the shape every command's checks share (runner/check-declaration.ts), judging the recorded
 * traffic, with how its evidence arises (runner/evidence.ts): `provoked` when the sandbox or an injection
 * creates the situation in a normal session (never exercised: `not-exercised`, with the hint);
 * `conditional` when only the partner's own choices do (never exercised: `not-applicable`, with
 * `notApplicableWhen`); `input` when a flag lets the traffic reach it at all (`unlockedBy`).
 */
export interface Rule extends CheckDeclaration<SpecSection> {
  /** What the partner does so that the traffic exercises the rule ("start a cert-slow run and keep it on screen"). */
  hint: string;
  /**
   * Client guidance, not a duty (the Limits table's "client guidance"): its offences only warn, and a
   * session that never exercised it is not incomplete.
   */
  advisory?: true;
  judge(traffic: Traffic, ctx: JudgeContext): RuleVerdict;
}

/** How the message of a rule not exercised yet begins, before its hint (the judge adds the checklist step after it). */
export const NOT_EXERCISED = 'not exercised: ';

/**
 * A rule's verdict from what it saw: any offence (a breach of a duty) fails, an advisory rule's only
 * warns; otherwise a warning warns; otherwise passed once exercised; otherwise pending with the hint
 * while the session runs, and skipped with it at the end. Each offence and warning becomes an
 * observation citing its section (the rule's first unless it names one).
 */
export function ruleVerdict(
  rule: Pick<Rule, 'hint' | 'advisory' | 'spec'>,
  ctx: JudgeContext,
  r: {
    offences: TrafficObservation[];
    warnings?: TrafficObservation[];
    exercised: boolean;
    passMessage: string;
    proof?: number[];
  },
): RuleVerdict {
  if (rule.advisory && r.offences.length > 0) {
    // Guidance can only warn: what would be an offence of a duty is a warning saying so.
    const asWarnings = r.offences.map((o) => ({
      ...o,
      message: `${o.message} (advisory: client guidance, not a duty)`,
    }));
    return ruleVerdict(rule, ctx, { ...r, offences: [], warnings: [...asWarnings, ...(r.warnings ?? [])] });
  }
  const warnings = r.warnings ?? [];
  // Worded as partner and receiver word what they record (runner/assertions.ts): the section in its own field.
  const observed = (o: TrafficObservation, warning: boolean): RuleObservation => {
    const { reading, otherReading, after, ...seen } = o;
    const spec = o.spec ?? rule.spec[0]!;
    return {
      ...seen,
      message:
        reading !== undefined && otherReading !== undefined
          ? SECTION_APART.warning(o.message, { reading, otherReading, ...(after !== undefined ? { after } : {}) }, spec)
          : SECTION_APART.failure(o.message, spec),
      spec,
      ...(warning ? { severity: 'warning' as const } : {}),
    };
  };
  const observations = [...r.offences.map((o) => observed(o, false)), ...warnings.map((o) => observed(o, true))];
  if (r.offences.length > 0) {
    const more = r.offences.length > 1 ? ` (and ${r.offences.length - 1} more)` : '';
    return { state: 'failed', message: `${observations[0]!.message}${more}`, observations };
  }
  if (warnings.length > 0) return { state: 'warning', message: observations[0]!.message, observations };
  if (r.exercised)
    return {
      state: 'passed',
      message: r.passMessage,
      observations: [],
      ...(r.proof ? { proof: r.proof.slice(0, 5) } : {}),
    };
  return { state: ctx.final ? 'skipped' : 'pending', message: `${NOT_EXERCISED}${rule.hint}`, observations: [] };
}
