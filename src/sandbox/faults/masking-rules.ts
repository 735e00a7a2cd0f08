// What the sandbox masks in a candidate it shows (spec: Sandbox behaviour), as one value: the spec's
// masking is the default, and a fault at the `masking` point leaves exactly one thing unmasked or masks it
// wrongly. A conformant variant may change it too (the operator's real-names switch). A leaf.

export interface MaskingRules {
  /** E-mail addresses inside text are hidden. */
  emails: boolean;
  /** The links hidden: every form (bare host/path links too), or only those with a scheme or www. */
  links: 'every-form' | 'schemed-only';
  /** A phone number written as bare digits is hidden like one written with separators. */
  barePhones: boolean;
  /** The name is replaced by the pseudonym, in the name field and inside evidence. */
  names: boolean;
  /** The pseudonym is the same in every run (otherwise salted with the run). */
  pseudonymStable: boolean;
  /** Inside evidence the name is replaced by the candidate's own pseudonym (otherwise another's). */
  evidenceOwnPseudonym: boolean;
}

/** The masking the spec asks of a sandbox. */
export const SPEC_MASKING: MaskingRules = {
  emails: true,
  links: 'every-form',
  barePhones: true,
  names: true,
  pseudonymStable: true,
  evidenceOwnPseudonym: true,
};
