// The shapes the spec gives the two credentials, said once (Authentication: "Partner API key |
// `spk_live_` + 48 lowercase hex", "Org token | `sot_` + 48 lowercase hex"; rule 7: certification
// looks for the strings `spk_` and `sot_`; rule 9: a key is identified by its first 12 characters
// only). The webhook signing secret has no shape in the spec (rule 6: delivered out of band), so
// nothing here describes it: it is known only by its value. A leaf any layer of the certifier may use
// (config validates and redacts, scan finds, partner judges traffic, schema shows values); the
// sandbox keeps its own, independent reading of the spec.

export interface SecretShape {
  /** The prefix the spec gives it, e.g. `spk_live_`. */
  prefix: string;
  /** The string the bundle scan looks for (rule 7): `spk_` for a partner key, `sot_` for an org token. */
  scanned: ScannedPrefix;
  /** How a message names it: "a partner key". */
  what: string;
}

/** The strings rule 7 names. */
export const SCANNED_PREFIXES = ['spk_', 'sot_'] as const;
export type ScannedPrefix = (typeof SCANNED_PREFIXES)[number];

/** The body after the prefix: 48 lowercase hex characters, for both. */
export const SECRET_BODY_LENGTH = 48;
const BODY = `[0-9a-f]{${SECRET_BODY_LENGTH}}`;

/** Rule 9: at most the first 12 characters of a key or token (or any secret) may be shown. */
export const SHOWN_SECRET_CHARS = 12;

export const PARTNER_KEY: SecretShape = { prefix: 'spk_live_', scanned: 'spk_', what: 'a partner key' };
export const ORG_TOKEN: SecretShape = { prefix: 'sot_', scanned: 'sot_', what: 'an org token' };

const CREDENTIAL_SHAPES: readonly SecretShape[] = [PARTNER_KEY, ORG_TOKEN];

/** Both prefixes of the spec: `spk_live_`, `sot_`. */
export const CREDENTIAL_PREFIXES: readonly string[] = CREDENTIAL_SHAPES.map((s) => s.prefix);

/** The credential whose scanned string `text` starts with (a found prefix, a known key or token); none for other text. */
export function credentialShapeOf(text: string): SecretShape | undefined {
  return CREDENTIAL_SHAPES.find((s) => text.startsWith(s.scanned));
}

/** The longest credential: its prefix and body (what a matcher must see after a match to judge it). */
export const MAX_CREDENTIAL_LENGTH = Math.max(...CREDENTIAL_PREFIXES.map((p) => p.length)) + SECRET_BODY_LENGTH;

/** Exactly one key or token of this shape, the whole string (a validator's test). */
export function exactShape(shape: SecretShape): RegExp {
  return new RegExp(`^${shape.prefix}${BODY}$`);
}

/**
 * What follows the scanned string in a full key or token, not continued by a letter, digit or
 * underscore: `live_` + 48 lowercase hex for `spk_`, the 48 hex for `sot_` (a finder's second look).
 */
export function restAfterScanned(shape: SecretShape): RegExp {
  return new RegExp(`^${shape.prefix.slice(shape.scanned.length)}${BODY}(?![0-9A-Za-z_])`);
}

/**
 * Unanchored: a prefix of either credential not preceded by a letter, digit or underscore (as the
 * bundle scan matches), followed by at least `minBody` letters or digits: a key or token, perhaps cut
 * or not of the spec's alphabet, where traffic should hold none. Group 1 is the prefix.
 */
export function credentialFinder(minBody: number): RegExp {
  return new RegExp(`(?<![A-Za-z0-9_])(${CREDENTIAL_PREFIXES.join('|')})[0-9A-Za-z]{${minBody},}`);
}
