// How a check's evidence arises, declared on every check and rule of every certifying command (run's
// checks, partner rules, receiver and scan checks). The declaration decides what a check that ended
// with nothing judged means (runner/outcome.ts), so a conformant party is never blamed, nor left
// incomplete, for a situation only its own choices would have created.

/**
 * - `provoked`: the certifier makes the situation happen (a fixture, an injection, a request of its
 *   own). Ending with nothing judged is an engine error; `inconclusive` only after every arrangement
 *   was tried, its reason saying what was tried.
 * - `conditional`: it judges a situation only the party's own choices create ("a ref, when present";
 *   "after a 422, resend the whole batch"). When it never arose the check is `not-applicable`, with
 *   the declared reason: never incomplete, never an error.
 * - `input`: an operator input unlocks it (a missing one skips it as `needs-input`, naming it); once
 *   given, the check provokes its situation like a `provoked` one.
 */
export const EVIDENCE_KINDS = ['provoked', 'conditional', 'input'] as const;
export type Evidence = (typeof EVIDENCE_KINDS)[number];

export interface EvidenceDeclaration {
  evidence: Evidence;
  /**
   * `conditional` only, required there: the reason given when the situation never arose, as a person
   * reads it in the report ("no notice carried a ref"). A check may give a more precise one itself
   * with a `not-applicable` skip.
   */
  notApplicableWhen?: string;
  /**
   * `input` only, where no declared need names it (partner, receiver and scan): what unlocks the check
   * ("--webhook-url"). A run check's unlock is derived from its `needs` (api-setup/needs.ts).
   */
  unlockedBy?: string;
  /**
   * The cases in which the check may end `warning`, one short sentence each (what the spec states
   * without a MUST, or reads two ways). Absent or empty: it cannot warn. The documentation's "what
   * may warn" table is generated from these.
   */
  warns?: readonly string[];
}

/** The reason of a conditional check that declared none (a declaration error the catalogue test refuses). */
export const SITUATION_NEVER_AROSE = 'the situation this check judges never arose';

/** Only the declaration of `d`: what a factory building a check from a row copies from the row. */
export function declarationOf(d: EvidenceDeclaration): EvidenceDeclaration {
  return {
    evidence: d.evidence,
    ...(d.notApplicableWhen !== undefined ? { notApplicableWhen: d.notApplicableWhen } : {}),
    ...(d.unlockedBy !== undefined ? { unlockedBy: d.unlockedBy } : {}),
    ...(d.warns !== undefined ? { warns: d.warns } : {}),
  };
}
