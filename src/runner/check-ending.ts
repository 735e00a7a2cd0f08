// How a check's run ended, as decideOutcome (outcome.ts) reads it: the engine's own exceptions (a
// failed step, a skip) and the command's (`skipFor`) become what they mean; any other is an error.

import { DEFAULT_CHECK_TIMEOUT_MS, type CheckDefinition } from './check.js';
import type { CheckRecord } from './check-record.js';
import { FailedStep } from './failed-step.js';
import { boundedText } from './observation-text.js';
import type { Ending, SkipDecision } from './outcome.js';
import { SkipCheck } from './skip-check.js';

export type Raw = { kind: 'done' } | { kind: 'threw'; error: unknown } | { kind: 'timeout' } | { kind: 'interrupted' };

interface EndingInput {
  check: CheckDefinition<never>;
  rec: CheckRecord;
  /** The certification's signal came while the check ran. */
  interrupted: boolean;
  /** The check's whole budget in ms. */
  total: number;
  env: { timeScale: number; marginMs: number; skipFor?(error: unknown): SkipDecision | undefined };
}

export function endingOf(raw: Raw, input: EndingInput): { ending: Ending; skip?: SkipDecision } {
  if (input.interrupted) return { ending: { kind: 'interrupted' } };
  if (raw.kind === 'timeout') return { ending: { kind: 'timeout', message: overrunMessage(input) } };
  if (raw.kind !== 'threw') return { ending: { kind: 'done' } };
  const e = raw.error;
  if (e instanceof FailedStep) {
    // The one deliberate exception: the target answered a step the check depends on wrongly.
    const { rec } = input;
    if (e.response) rec.record(e.response.exchange, true);
    const index = e.response ? rec.indexOf(e.response.exchange) : undefined;
    rec.observations.unshift({
      message: boundedText(e.message),
      spec: e.spec,
      ...(index !== undefined ? { exchange: index } : {}),
    });
    return { ending: { kind: 'done' } };
  }
  if (e instanceof SkipCheck) {
    const skip = {
      reason: boundedText(e.message),
      kind: e.kind,
      ...(e.unlock !== undefined ? { unlock: e.unlock } : {}),
    };
    return { ending: { kind: 'done' }, skip };
  }
  const skip = input.env.skipFor?.(e);
  if (skip) return { ending: { kind: 'done' }, skip: { ...skip, reason: boundedText(skip.reason) } };
  return { ending: { kind: 'threw', error: e instanceof Error ? e : new Error(String(e)) } };
}

function overrunMessage({ check, total, env }: EndingInput): string {
  const specS = (check.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS) / 1000;
  return (
    `check overran its time budget of ${fmtSeconds(total)} (${specS} s of spec time ÷ time scale ${env.timeScale} + ${fmtSeconds(env.marginMs)} margin; ` +
    'time waiting for HTTP answers and shared setup not counted)'
  );
}

function fmtSeconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
