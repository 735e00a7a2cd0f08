// The one rule for showing a found key: the spec identifies a key or token by its first 12
// characters (Authentication, rule 9), so no output of the scanner ever shows more. Applied to every
// string a finding carries (file path, location, excerpt) and to the paths the report repeats.

import { SCANNED_PREFIXES, SHOWN_SECRET_CHARS, type ScannedPrefix } from '../secret-shapes.js';

/** The scanned strings without their underscore (`spk`, `sot`), as alternatives of a regular expression. */
export const SCANNED_STEMS = SCANNED_PREFIXES.map((p) => p.slice(0, -1)).join('|');

const SCANNED_OF_STEM = new Map<string, ScannedPrefix>(SCANNED_PREFIXES.map((p) => [p.slice(0, -1), p]));

/** The scanned string a matched stem (`spk`, `sot`) stands for, whichever way its underscore was written. */
export function scannedOfStem(stem: string): ScannedPrefix {
  const prefix = SCANNED_OF_STEM.get(stem);
  if (prefix === undefined) throw new Error(`not a scanned stem: ${JSON.stringify(stem)}`);
  return prefix;
}

// The prefix in any of the three spellings the matcher sees through, then everything that can
// continue a key, escapes included (`spk%5Flive%5F…` must not show its hex after the `%5F`).
const SECRET_RUN = new RegExp(
  `(?:${SCANNED_STEMS})` + String.raw`(?:_|\\u005[fF]|%5[fF])(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}|\\u[0-9A-Fa-f]{4})*`,
  'g',
);

/** `text` with every `spk_…` / `sot_…` run cut to its first 12 characters and `…`. */
export function truncateSecrets(text: string): string {
  if (text.indexOf('spk') === -1 && text.indexOf('sot') === -1) return text;
  return text.replace(SECRET_RUN, (m) => (m.length > SHOWN_SECRET_CHARS ? `${m.slice(0, SHOWN_SECRET_CHARS)}…` : m));
}

/** A finding as it may be shown: every string it carries truncated. */
export function redactFinding<F extends { file: string; location: string | null; excerpt: string }>(f: F): F {
  return {
    ...f,
    file: truncateSecrets(f.file),
    location: f.location === null ? null : truncateSecrets(f.location),
    excerpt: truncateSecrets(f.excerpt),
  };
}
