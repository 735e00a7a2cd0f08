// Finds where secrets sit in a text, in one left-to-right reading per pass and a constant number of
// automaton steps per character, whatever the text and however many secrets there are.
//
// Two passes over the text, each feeding every automaton one character at a time:
// - as written: letter case and `-`/`_` folded (secret-forms.ts), line breaks skipped (CR, LF, and
//   the two-character escapes `\n`, `\r` of a JSON string), so a key split across lines or base64
//   wrapped every 16 or 76 characters is still one run; keys and tokens by their spec format
//   (`spk_live_`/`sot_` + 48 or more hex digits) are found here too, known or not;
// - decoded: each percent escape (`%5f`), `\u005f`, `\x5f`, `\/`, and HTML character reference
//   (`&#95;`, `&#x5f;`, `&lowbar;`) read as the one character it stands for, whichever characters of
//   the secret are encoded and however. Run only when the text holds `%`, `\` or `&`.
// A head of a form of MIN_FRAGMENT characters or more counts as a match too (a quote cut mid-key).
// A match covers the original characters it was read from; overlapping matches of either pass are
// merged into one region, named after its leftmost match.

import type { Automaton } from './secret-automaton.js';
import { buildAutomaton } from './secret-automaton.js';
import { foldCode, isLineBreak } from './secret-forms.js';
import { CREDENTIAL_PREFIXES, SECRET_BODY_LENGTH } from '../secret-shapes.js';

export interface TaggedAutomaton {
  automaton: Automaton;
  /** Pattern index → the caller's tag for it. */
  tags: readonly number[];
}

/** Tag of a region found by the spec format alone (no known secret). */
export const LOOKALIKE_TAG = -1;

export interface Region {
  start: number;
  end: number;
  tag: number;
}

const LOOKALIKE_PREFIXES = buildAutomaton(CREDENTIAL_PREFIXES);

/**
 * The first MIN_FRAGMENT characters of a form are redacted even where the rest does not follow: a
 * check that quotes 80 characters of an answer may cut a key in two, and its first half is no preview
 * (a preview shows 12 characters).
 */
export const MIN_FRAGMENT = 16;
const LOOKALIKE_HEX_DIGITS = SECRET_BODY_LENGTH;

function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  if (lower >= 0x61 && lower <= 0x66) return lower - 0x61 + 10;
  return -1;
}

/** The value of `count` hex digits at `at`, or -1. */
function hexAt(text: string, at: number, count: number): number {
  if (at + count > text.length) return -1;
  let v = 0;
  for (let i = 0; i < count; i++) {
    const h = hexValue(text.charCodeAt(at + i));
    if (h < 0) return -1;
    v = v * 16 + h;
  }
  return v;
}

const NAMED_REFERENCES: Record<string, number> = {
  lowbar: 0x5f,
  UnderBar: 0x5f,
  hyphen: 0x2d,
  dash: 0x2d,
  amp: 0x26,
  quot: 0x22,
  apos: 0x27,
  lt: 0x3c,
  gt: 0x3e,
  sol: 0x2f,
  period: 0x2e,
  colon: 0x3a,
};

/** Result of reading one character: its code and where the next one starts. */
interface Read {
  code: number;
  next: number;
}

/** A character reference at `at` (`&#95;`, `&#x5f;`, `&lowbar;`; the `;` of a numeric one optional). */
function readReference(text: string, at: number, out: Read): boolean {
  if (text.charCodeAt(at + 1) === 0x23) {
    const hex = (text.charCodeAt(at + 2) | 0x20) === 0x78;
    let i = at + (hex ? 3 : 2);
    let v = 0;
    const first = i;
    while (i < text.length && i - first < 7) {
      const c = text.charCodeAt(i);
      const d = hex ? hexValue(c) : c >= 0x30 && c <= 0x39 ? c - 0x30 : -1;
      if (d < 0) break;
      v = v * (hex ? 16 : 10) + d;
      i++;
    }
    if (i === first || v > 0x10ffff) return false;
    out.code = v > 0xffff ? 0xfffd : v;
    out.next = text.charCodeAt(i) === 0x3b ? i + 1 : i;
    return true;
  }
  const semi = text.indexOf(';', at + 1);
  if (semi < 0 || semi - at > 9) return false;
  const code = NAMED_REFERENCES[text.slice(at + 1, semi)];
  if (code === undefined) return false;
  out.code = code;
  out.next = semi + 1;
  return true;
}

/** An escaped character at `at`, decoded into `out`; false when there is none. */
function readEscape(text: string, at: number, out: Read): boolean {
  const c = text.charCodeAt(at);
  if (c === 0x25) {
    const v = hexAt(text, at + 1, 2);
    if (v < 0) return false;
    out.code = v;
    out.next = at + 3;
    return true;
  }
  if (c === 0x26) return readReference(text, at, out);
  if (c !== 0x5c) return false;
  // `\\u0073` is `\u0073` escaped once more: a message quoting an escaped secret, inside a JSON body.
  let slash = at;
  while (text.charCodeAt(slash + 1) === 0x5c && slash - at < 8) slash++;
  const kind = text.charCodeAt(slash + 1);
  if (kind === 0x75 || kind === 0x78) {
    const digits = kind === 0x75 ? 4 : 2;
    const v = hexAt(text, slash + 2, digits);
    if (v >= 0) {
      out.code = v;
      out.next = slash + 2 + digits;
      return true;
    }
  }
  if (slash > at) {
    out.code = 0x5c;
    out.next = at + 2;
    return true;
  }
  if (kind === 0x22 || kind === 0x2f) {
    out.code = kind;
    out.next = at + 2;
    return true;
  }
  return false;
}

/** Merges regions pushed in the order their matches end; each is pushed and popped at most once. */
class Regions {
  readonly list: Region[] = [];
  push(start: number, end: number, tag: number): void {
    let s = start;
    let e = end;
    let t = tag;
    for (let top = this.list.at(-1); top && s <= top.end; top = this.list.at(-1)) {
      if (top.start <= s) t = top.tag;
      s = Math.min(s, top.start);
      e = Math.max(e, top.end);
      this.list.pop();
    }
    this.list.push({ start: s, end: e, tag: t });
  }
}

/** What every pass over texts with one set of automata shares: its ring size, computed once. */
export interface Scanner {
  automata: readonly TaggedAutomaton[];
  ringSize: number;
  /**
   * 1 for each character a match can be read from: the characters of the forms (any case, `-` for
   * `_`), letters and digits (the spec's formats, escapes), line breaks and the characters escapes
   * start with. A match never spans another character, so the automata read only the runs of these
   * (a tight loop over a table skips the rest: an answer of 600 KB of `{},` costs no automaton step).
   */
  readable: Uint8Array;
}

const ALWAYS_READABLE = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-\r\n\\%&#;';

/** A table of the characters always readable (see Scanner.readable); the caller marks its forms' characters. */
export function readableTable(): Uint8Array {
  const readable = new Uint8Array(0x10000);
  for (let i = 0; i < ALWAYS_READABLE.length; i++) readable[ALWAYS_READABLE.charCodeAt(i)] = 1;
  return readable;
}

/** Marks a character of a form (folded) readable, in every spelling that folds to it. */
export function markReadable(readable: Uint8Array, code: number): void {
  readable[code] = 1;
  if (code >= 0x61 && code <= 0x7a) readable[code - 0x20] = 1;
  if (code === 0x5f) readable[0x2d] = 1;
}

export function createScanner(automata: readonly TaggedAutomaton[], readable: Uint8Array = readableTable()): Scanner {
  const maxLength = Math.max(LOOKALIKE_PREFIXES.maxLength, ...automata.map((a) => a.automaton.maxLength));
  let ringSize = 16;
  while (ringSize <= maxLength) ringSize *= 2;
  return { automata, ringSize, readable };
}

/** One pass over the runs of readable characters of `text` at least MIN_RUN long, each read from a fresh start. */
function pass(text: string, scanner: Scanner, decode: boolean): Region[] {
  const regions = new Regions();
  const { readable } = scanner;
  for (let i = 0; i < text.length;) {
    while (i < text.length && readable[text.charCodeAt(i)] !== 1) i++;
    let end = i;
    while (end < text.length && readable[text.charCodeAt(end)] === 1) end++;
    if (end - i >= MIN_RUN) passRun(text, i, end, scanner, decode, regions);
    i = end;
  }
  return regions.list;
}

/** No form is shorter (MIN_SECRET_LENGTH), and a lookalike is longer. */
const MIN_RUN = 8;

function passRun(
  text: string,
  from: number,
  to: number,
  { automata, ringSize }: Scanner,
  decode: boolean,
  regions: Regions,
): void {
  const mask = ringSize - 1;
  /** Where each of the last `ringSize` characters read started in the text. */
  const ring = new Int32Array(ringSize);
  const states = new Int32Array(automata.length);
  let lookalikeState = 0;
  let read = 0;
  const got: Read = { code: 0, next: 0 };
  for (let i = from; i < to;) {
    let code = text.charCodeAt(i);
    let next = i + 1;
    if (isLineBreak(code)) {
      i = next;
      continue;
    }
    if (code === 0x5c) {
      const escaped = text.charCodeAt(i + 1);
      if (escaped === 0x6e || escaped === 0x72) {
        i += 2;
        continue;
      }
    }
    if (decode && (code === 0x25 || code === 0x5c || code === 0x26) && readEscape(text, i, got)) {
      code = got.code;
      next = got.next;
    }
    code = foldCode(code);
    ring[read & mask] = i;
    let bestStart = -1;
    let bestTag = 0;
    for (let a = 0; a < automata.length; a++) {
      const tagged = automata[a];
      if (!tagged) continue;
      const state = tagged.automaton.step(states[a] ?? 0, code);
      states[a] = state;
      // Back at the root (most characters of most texts): nothing read matches.
      if (state === 0) continue;
      // A whole form, or a head of one long enough to be a secret's worth (a message cut mid-key).
      const depth = tagged.automaton.depth(state);
      const pattern = depth >= MIN_FRAGMENT ? tagged.automaton.through(state) : tagged.automaton.longest(state);
      if (pattern < 0) continue;
      const length = depth >= MIN_FRAGMENT ? depth : tagged.automaton.lengthOf(pattern);
      const start = ring[(read - length + 1) & mask] ?? i;
      if (bestStart < 0 || start < bestStart) {
        bestStart = start;
        bestTag = tagged.tags[pattern] ?? 0;
      }
    }
    if (bestStart >= 0) regions.push(bestStart, next, bestTag);
    if (!decode) {
      lookalikeState = LOOKALIKE_PREFIXES.step(lookalikeState, code);
      const prefix = lookalikeState === 0 ? -1 : LOOKALIKE_PREFIXES.longest(lookalikeState);
      if (prefix >= 0) {
        // A prefix is no hex digit, so the runs read here never overlap: linear in all.
        let end = next;
        while (end < to && hexValue(text.charCodeAt(end)) >= 0) end++;
        if (end - next >= LOOKALIKE_HEX_DIGITS) {
          const start = ring[(read - LOOKALIKE_PREFIXES.lengthOf(prefix) + 1) & mask] ?? i;
          regions.push(start, end, LOOKALIKE_TAG);
        }
      }
    }
    read++;
    i = next;
  }
}

/** An escape the decoding pass reads (native search: most texts have none, and skip that pass). */
const ESCAPE = /%[0-9a-f]{2}|\\[ux\\"/]|&#|&[a-z]+;/i;

/** The regions of `text` that hold a secret in any form, sorted and disjoint. */
export function findSecretRegions(text: string, scanner: Scanner): Region[] {
  const plain = pass(text, scanner, false);
  if (scanner.automata.length === 0 || !ESCAPE.test(text)) return plain;
  const decoded = pass(text, scanner, true);
  if (decoded.length === 0) return plain;
  const merged = new Regions();
  let a = 0;
  let b = 0;
  while (a < plain.length || b < decoded.length) {
    const x = plain[a];
    const y = decoded[b];
    const take = x && (!y || x.start <= y.start) ? x : y;
    if (!take) break;
    if (take === x) a++;
    else b++;
    merged.push(take.start, take.end, take.tag);
  }
  return merged.list;
}
