// The matching rule, in one place: `spk_` or `sot_` not preceded by a letter, digit or underscore,
// written plainly, JSON-escaped (`spk\u005f`) or percent-encoded (`spk%5F`); and the spec formats of
// a full key (`spk_live_` + 48 lowercase hex) and token (`sot_` + 48 lowercase hex).

import type { FindingKind, SecretPrefix } from './finding.js';
import {
  MAX_CREDENTIAL_LENGTH,
  ORG_TOKEN,
  PARTNER_KEY,
  restAfterScanned,
  SHOWN_SECRET_CHARS,
} from '../secret-shapes.js';
import { SCANNED_STEMS, truncateSecrets } from './redact.js';

/** The three spellings of the underscore; letters are matched case-sensitively (`SPK_MAX` is no key). */
export const MATCH_SOURCE = `(${SCANNED_STEMS})` + String.raw`(?:_|\\u005[fF]|%5[fF])`;

/** Longest raw text a full key can take when every character is escaped as `\uXXXX` (6 chars). */
export const LOOKAHEAD_CHARS = 6 * MAX_CREDENTIAL_LENGTH + 6;
/** Raw characters kept before a match: the boundary test and the excerpt. */
export const LOOKBEHIND_CHARS = 32;
const WORD = /[A-Za-z0-9_]/;
const HEX2 = /^[0-9a-fA-F]{2}$/;

function isWordCode(code: number): boolean {
  return WORD.test(String.fromCharCode(code));
}

/**
 * True when the character before `index` in `text` (already decoded as an escape where it is one)
 * is not a letter, digit or underscore. An escape such as `\n`, `%22` or `\u0022` right before the
 * prefix stands for a separator, not for the letter or digits it is written with.
 */
export function atBoundary(text: string, index: number): boolean {
  if (index === 0) return true;
  const prev = text.charAt(index - 1);
  if (!WORD.test(prev)) return true;
  // %XX: the decoded character decides.
  if (index >= 3 && text[index - 3] === '%' && HEX2.test(text.slice(index - 2, index))) {
    return !isWordCode(parseInt(text.slice(index - 2, index), 16));
  }
  // \uXXXX: the decoded character decides.
  if (
    index >= 6 &&
    text[index - 6] === '\\' &&
    text[index - 5] === 'u' &&
    /^[0-9a-fA-F]{4}$/.test(text.slice(index - 4, index))
  ) {
    if (oddBackslashesBefore(text, index - 6)) return !isWordCode(parseInt(text.slice(index - 4, index), 16));
  }
  // \n, \t, \r, \b, \f, \v, \0: a control character.
  if ('ntrbfv0'.includes(prev) && index >= 2 && text[index - 2] === '\\') return oddBackslashesBefore(text, index - 2);
  return false;
}

/** Whether the backslash at `at` is itself unescaped (preceded by an even number of backslashes). */
function oddBackslashesBefore(text: string, at: number): boolean {
  let n = 0;
  for (let i = at; i >= 0 && text[i] === '\\'; i--) n++;
  return n % 2 === 1;
}

/** Decodes `\uXXXX`, `\/` and `%XX` in a short raw window (what follows a match). */
export function decodeWindow(raw: string): string {
  return raw.replace(/\\u([0-9a-fA-F]{4})|\\\/|%([0-9a-fA-F]{2})/g, (_m, u?: string, p?: string) =>
    String.fromCharCode(parseInt(u ?? p ?? '2f', 16)),
  );
}

const FULL_KEY_REST = restAfterScanned(PARTNER_KEY);
const FULL_TOKEN_REST = restAfterScanned(ORG_TOKEN);

/** The kind of a match from the decoded text after its prefix. */
export function kindOf(prefix: SecretPrefix, decodedAfter: string): FindingKind {
  if (prefix === PARTNER_KEY.scanned) return FULL_KEY_REST.test(decodedAfter) ? 'partner-key' : 'prefix';
  return FULL_TOKEN_REST.test(decodedAfter) ? 'org-token' : 'prefix';
}

const cut = (m: string): string => `${m.slice(0, 4)}…`;

/**
 * Context for the excerpt: printable, and with any long hex run cut, so that the tail of another
 * key standing just before the match never shows more than a few characters, disguised or not:
 * invisible characters dropped and fullwidth forms folded first (NFKC), then runs of hex digits, of
 * rot13'd hex digits with digits among them, and of base64 or base32 letters with a digit among them
 * cut to their first 4 characters.
 */
export function cleanContext(raw: string): string {
  return truncateSecrets(
    raw
      .normalize('NFKC')
      .replace(/[\p{Cf}\p{Mn}\p{Me}]/gu, '')
      .replace(/[\u0000-\u001f\u007f-\u009f\ufffd]/g, ' ')
      .replace(/[0-9a-fA-F]{8,}/g, cut)
      .replace(/[0-9a-fn-sA-FN-S]{8,}/g, (m) => (/[0-9].*[0-9]/.test(m) ? cut(m) : m))
      .replace(/[A-Za-z0-9+/=_-]{16,}/g, (m) => (/[0-9]/.test(m) ? cut(m) : m)),
  );
}

/** The match itself in the excerpt: at most its first 12 raw characters. */
export function previewMatch(raw: string): string {
  const clean = raw.replace(/[\u0000-\u001f\u007f]/g, ' ');
  return clean.length > SHOWN_SECRET_CHARS ? `${clean.slice(0, SHOWN_SECRET_CHARS)}…` : clean;
}
