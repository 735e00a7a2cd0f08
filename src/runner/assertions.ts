// The one assertion vocabulary of every command: what a check of `run`, a partner rule and a receiver
// check record when something does not hold. `fail` records a failure, `that` a failure when its
// condition is false, `warn` a warning when its condition is false — where the spec states the rule
// without a MUST or reads two ways, so the warning carries the reading taken and the other reading as
// fields of their own. Each records received, expected and the spec section the same way.
//
// Only the words of the message differ by command, through one named wording each (below): `run`
// appends the section to the message (its reports list a check's observations without their section),
// while partner and receiver keep the section in its own field (the receiver quotes the spec's
// sentence there), so their message carries the readings only. Reports and results.json keep the text
// each command has always written, so a baseline or a partner's saved report still reads the same.

import { renderValue } from './render.js';
import type { Observation } from './results.js';

/** What a check saw that does not hold: received, what the spec expects (rendered for the report). */
export interface Finding {
  message: string;
  expected?: unknown;
  received?: unknown;
  /** JSON pointer into the response body, where one applies. */
  pointer?: string;
}

/** The two readings of a sentence that reads two ways (or states its rule without a MUST). */
export interface Readings {
  /** The reading the check took, under which the party is conformant. */
  reading: string;
  /** Why the other reading is possible: what the party would break under it. */
  otherReading: string;
  /** Words after the readings, as written (how to judge it fully, a further reading); most have none. */
  after?: string;
}

/** How a command words the message of what it records. */
export interface Wording {
  failure(message: string, spec: string, note?: string): string;
  warning(message: string, readings: Readings, spec: string): string;
}

/**
 * `run`: every message ends with the section it enforces, "(<section>)" (a schema's name goes before
 * it: "(<schema> schema; <section>)"), and a warning says "(read as: …; the other reading: …)" first.
 */
export const SECTION_IN_MESSAGE: Wording = {
  failure: (message, spec, note) => `${message} (${note ? `${note}; ` : ''}${spec})`,
  warning: (message, r, spec) =>
    SECTION_IN_MESSAGE.failure(
      `${message} (read as: ${r.reading}; the other reading: ${r.otherReading})${r.after ?? ''}`,
      spec,
    ),
};

/**
 * Partner and receiver: the section stays in its own field (a partner rule's section, or the sentence
 * a receiver check quotes), and a warning says "(reading taken: …; the other reading: …)".
 */
export const SECTION_APART: Wording = {
  failure: (message) => message,
  warning: (message, r) =>
    `${message} (reading taken: ${r.reading}; the other reading: ${r.otherReading})${r.after ?? ''}`,
};

/** The observation recorded for a finding: a failure, or a warning when `readings` are given. */
export function observationOf(
  wording: Wording,
  finding: Finding,
  spec: string,
  how: { readings?: Readings; note?: string } = {},
): Omit<Observation, 'exchange'> {
  const out: Omit<Observation, 'exchange'> = {
    message: how.readings
      ? wording.warning(finding.message, how.readings, spec)
      : wording.failure(finding.message, spec, how.note),
    spec,
  };
  if (how.readings) out.severity = 'warning';
  if (finding.pointer !== undefined) out.pointer = finding.pointer;
  if (finding.expected !== undefined) out.expected = rendered(finding.expected);
  if (finding.received !== undefined) out.received = rendered(finding.received);
  return out;
}

/** The assertions every check shares; `E` is the evidence an observation links (an answer, an exchange). */
export interface Assertions<F extends Finding, E> {
  /** Any condition: records the finding as a failure when it is false. */
  that(condition: boolean, finding: F, evidence?: E): boolean;
  /** Records a failure unconditionally (returns false, so `return t.expect.fail(…)` ends a check). */
  fail(finding: F, evidence?: E): false;
  /** Records the finding as a warning, with its two readings, when `condition` is false. */
  warn(condition: boolean, finding: F & Readings, evidence?: E): boolean;
}

export interface AssertionDeps<F extends Finding, E> {
  wording: Wording;
  /** The section a finding cites (written by the check, or the check's own). */
  specOf(finding: F): string;
  observe(observation: Omit<Observation, 'exchange'>, evidence?: E): void;
  /** Told of every assertion made, held or not: a check that asserted nothing has not passed. */
  onAssert?(): void;
}

/** The shared assertions, plus `record` (a failure, not counted as an assertion) for richer ones built on it. */
export function createAssertions<F extends Finding, E>(
  deps: AssertionDeps<F, E>,
): Assertions<F, E> & { record(finding: F, evidence?: E, note?: string): false } {
  const record = (finding: F, evidence?: E, note?: string): false => {
    deps.observe(observationOf(deps.wording, finding, deps.specOf(finding), note ? { note } : {}), evidence);
    return false;
  };
  return {
    record,
    that(condition, finding, evidence) {
      deps.onAssert?.();
      return condition || record(finding, evidence);
    },
    fail(finding, evidence) {
      deps.onAssert?.();
      return record(finding, evidence);
    },
    warn(condition, finding, evidence) {
      deps.onAssert?.();
      if (condition) return true;
      const { reading, otherReading, after } = finding;
      const readings: Readings = { reading, otherReading, ...(after !== undefined ? { after } : {}) };
      deps.observe(observationOf(deps.wording, finding, deps.specOf(finding), { readings }), evidence);
      return false;
    },
  };
}

function rendered(v: unknown): string {
  return typeof v === 'string' ? v : renderValue(v);
}
