// The one place a check's (or a partner rule's, or a receiver or scan check's) status is decided from
// how it ended: what it asserted, what it observed, whether it skipped and why, and whether the
// certification was interrupted under it, and how its evidence arises (runner/evidence.ts). run, partner,
// receiver and scan all call decideOutcome, so a check can never pass on one command for a reason another
// would call an error.

import { SITUATION_NEVER_AROSE, type EvidenceDeclaration } from './evidence.js';
import type { CheckStatus, Observation, SkipKind } from './results.js';

/** Why a check ended without judging the target: the kind drives the verdict (certified / incomplete). */
export interface SkipDecision {
  kind: SkipKind;
  reason: string;
  /** needs-input: the short name of what would run it ("--expired-code", "2 more activation codes"). */
  unlock?: string;
}

export type Ending =
  | { kind: 'done' }
  /** The certification's own signal (SIGINT/SIGTERM): never the target's fault. */
  | { kind: 'interrupted' }
  | { kind: 'timeout'; message: string }
  | { kind: 'threw'; error: Error };

export interface CheckEndingInput {
  /** How the check's evidence arises: what ending with nothing judged means. */
  declaration: Pick<EvidenceDeclaration, 'evidence' | 'notApplicableWhen'>;
  ending: Ending;
  /** Every assertion the check made, held or not; a pass needs at least one. */
  asserted: number;
  observations: readonly Observation[];
  /** Observations recorded before the interruption (when interrupted); later ones came from the abort itself. */
  observationsBeforeInterrupt?: number;
  skip?: SkipDecision;
}

export interface Outcome {
  status: CheckStatus;
  message: string;
  skip?: SkipDecision;
  error?: { name: string; message: string; stack?: string };
}

export const ASSERTED_NOTHING =
  'asserted nothing: the check ended without judging anything and without saying why (an engine defect, not a verdict on the target)';

export function decideOutcome(input: CheckEndingInput): Outcome {
  const { ending, observations } = input;
  const firstFailure = (list: readonly Observation[]): Observation | undefined =>
    list.find((o) => o.severity !== 'warning');
  if (ending.kind === 'interrupted') {
    // A failure seen before the signal stands; whatever the abort itself caused (closed sockets,
    // cancelled waits) is the certifier's doing and never blames the target.
    const before = observations.slice(0, input.observationsBeforeInterrupt ?? 0);
    const failure = firstFailure(before);
    if (failure) return { status: 'failed', message: failure.message };
    const skip: SkipDecision = {
      kind: 'interrupted',
      reason: 'interrupted: the certification was stopped (SIGINT/SIGTERM) before this check ended',
    };
    return { status: 'skipped', message: skip.reason, skip };
  }
  if (ending.kind === 'timeout')
    return { status: 'error', message: ending.message, error: { name: 'CheckTimeout', message: ending.message } };
  if (ending.kind === 'threw') {
    const e = ending.error;
    return {
      status: 'error',
      message: `engine error: ${e.name}: ${e.message}`,
      error: { name: e.name, message: e.message, ...(e.stack ? { stack: e.stack } : {}) },
    };
  }
  // Any failure wins; a skip (the check could not finish) wins over warnings seen before it.
  const failure = firstFailure(observations);
  if (failure) return { status: 'failed', message: failure.message };
  const conditional = input.declaration.evidence === 'conditional';
  if (input.skip) {
    const skip = conditional ? situationSkip(input.skip) : input.skip;
    return { status: 'skipped', message: skip.reason, skip };
  }
  if (observations.length > 0) return { status: 'warning', message: observations[0]!.message };
  if (input.asserted === 0) {
    // A conditional check judges what only the party's choices create: when that never arose there
    // is nothing to judge and nothing anyone could supply, so it does not apply. Provoked and input
    // checks made (or were given) their situation: judging nothing is the engine's defect.
    if (conditional) {
      const skip: SkipDecision = {
        kind: 'not-applicable',
        reason: input.declaration.notApplicableWhen ?? SITUATION_NEVER_AROSE,
      };
      return { status: 'skipped', message: skip.reason, skip };
    }
    return {
      status: 'error',
      message: ASSERTED_NOTHING,
      error: { name: 'AssertedNothing', message: ASSERTED_NOTHING },
    };
  }
  return { status: 'passed', message: '' };
}

/**
 * A conditional check's skip for want of its situation (`inconclusive`: the party's behaviour left
 * nothing to judge; `not-exercised`: its traffic never did it) is `not-applicable`, with its own
 * reason: the party chose otherwise, which the spec allows. Skips for an input, a selection or a
 * signal keep their kind.
 */
function situationSkip(skip: SkipDecision): SkipDecision {
  if (skip.kind !== 'inconclusive' && skip.kind !== 'not-exercised') return skip;
  return { kind: 'not-applicable', reason: skip.reason };
}

/** The CheckResult fields of an outcome (skipKind and unlock only on skips). */
export function outcomeFields(o: Outcome): {
  status: CheckStatus;
  message: string;
  skipKind?: SkipKind;
  unlock?: string;
  error?: Outcome['error'];
} {
  return {
    status: o.status,
    message: o.message,
    ...(o.skip ? { skipKind: o.skip.kind, ...(o.skip.unlock !== undefined ? { unlock: o.skip.unlock } : {}) } : {}),
    ...(o.error ? { error: o.error } : {}),
  };
}
