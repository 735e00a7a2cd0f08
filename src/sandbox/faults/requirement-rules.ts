// The rules by which the sandbox judges submitted requirements and builds a run's list (spec: POST /runs,
// Requirement rules, rejection and warning codes), as one value: the spec's rules are the default, and a
// fault at the `requirementRules` point changes exactly one of them. A leaf, like points.ts.

export interface RequirementRules {
  /** The `index` of an issue is the requirement's position counted from this (the spec: 0). */
  firstIndex: 0 | 1;
  /** The `index` of the one issue about `requirements` that is not an array (the spec: -1). */
  notArrayIndex: number;
  /** A kind other than `must` or `nice` is refused as `invalid_kind` (otherwise taken as `nice`). */
  kindChecked: boolean;
  /** The text kept is trimmed, its whitespace collapsed. */
  collapseWhitespace: boolean;
  /** Duplicates are compared case-folded. */
  duplicatesFolded: boolean;
  /** The length in characters from which a text is `too_long` (the spec allows 300). */
  tooLongAt: number;
  /** A text of whitespace only is `empty_text` (otherwise only the empty string is). */
  blankIsEmpty: boolean;
  /** A requirement that names the job's location is refused as `location_as_requirement`. */
  locationRefused: boolean;
  /** The `origin` of a submitted requirement, and of one derived from the job. */
  submittedOrigin: 'partner' | 'submitted';
  derivedOrigin: 'derived' | 'partner';
  /** The warnings given: a term under 3 characters, a band of years, a must that cannot be verified. */
  shortTermWarning: boolean;
  yearsBandWarning: boolean;
  unverifiableWarning: boolean;
  /** The job title is appended as the last must unless it is already there. */
  titleAppended: boolean;
  /** A submitted requirement equal to the title counts as the title already there. */
  submittedTitleRecognized: boolean;
  /** The appended title counts toward the cap of three musts. */
  titleCounted: boolean;
  /** The musts refused as `too_many_musts`: those past the cap, or (wrongly) the first one. */
  tooManyMustsOn: 'past-cap' | 'first';
  /** Every accepted requirement is kept (otherwise the last `nice` is dropped). */
  keepsEvery: boolean;
  /** An issue's `message_he` is in Hebrew (otherwise the English message). */
  hebrewMessages: boolean;
}

/** The rules as the spec states them. */
export const SPEC_REQUIREMENT_RULES: RequirementRules = {
  firstIndex: 0,
  notArrayIndex: -1,
  kindChecked: true,
  collapseWhitespace: true,
  duplicatesFolded: true,
  tooLongAt: 301,
  blankIsEmpty: true,
  locationRefused: true,
  submittedOrigin: 'partner',
  derivedOrigin: 'derived',
  shortTermWarning: true,
  yearsBandWarning: true,
  unverifiableWarning: true,
  titleAppended: true,
  submittedTitleRecognized: true,
  titleCounted: true,
  tooManyMustsOn: 'past-cap',
  keepsEvery: true,
  hebrewMessages: true,
};
