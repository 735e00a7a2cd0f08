// What the scanner reports: one place where `spk_` or `sot_` appears (Authentication, rule 7:
// "Certification checks frontend bundles and browser traffic for the strings `spk_` and `sot_`").

import type { ScannedPrefix } from '../secret-shapes.js';

/**
 * `partner-key` / `org-token`: a full key or token of the spec's format follows; `prefix`: only the
 * string; `not-scanned`: (part of) the file could not be read within the scanner's bounds, so it may
 * hold either string: it fails both checks rather than pass unread (`excerpt` says why).
 */
export type FindingKind = 'partner-key' | 'org-token' | 'prefix' | 'not-scanned';

/** The strings rule 7 names (src/secret-shapes.ts). */
export type SecretPrefix = ScannedPrefix;

export interface Finding {
  /** The path as given or found while walking a folder. */
  file: string;
  /** 1-based line in the text the match sits in (the file, or the part named by `location`). */
  line: number;
  /** 1-based column in Unicode code points. */
  column: number;
  kind: FindingKind;
  /**
   * Where inside the file, when the file has parts: a HAR entry and part
   * (`log.entries[3].request.headers[1].value (x-partner-key)`), a source-map source name, the
   * decompression applied. `null` for a plain text file.
   */
  location: string | null;
  /** A little context before the match and at most the first 12 characters of the match itself. */
  excerpt: string;
  /** Which string was found (decoded: `spk\u005f` is reported as `spk_`). */
  prefix: SecretPrefix;
}
