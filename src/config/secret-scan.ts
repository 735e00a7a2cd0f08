// Finds where secrets sit in a text, in time linear in the text whatever the text and however many
// secrets there are. The text is read in views (text-view.ts), each a string of units that remember
// the span of the text they came from:
// - its skeleton (text-skeleton.ts: what does not show dropped, NFKC, escapes decoded until stable);
// - the skeleton reversed, rot13'd, and both: what was reversed or rot13'd reads forwards here, before
//   or after it was encoded; when the text
//   holds an escape, also the skeleton of the text reversed and of the text rot13'd (an escape read
//   backwards or rot13'd is another escape, or none);
// - every run of the skeleton that decodes as base64, base32 or hex, decoded (encoded-runs.ts), and
//   the skeleton of that: an encoding of a disguised secret.
// Each view is fed to every automaton one unit at a time, letter case and `-`/`_` folded; keys and
// tokens by their spec format (`spk_live_`/`sot_` + 48 or more hex digits) are found in every view
// too, known or not. A head of a form of MIN_FRAGMENT units or more counts as a match (a quote cut
// mid-key). A match covers the span of the text its units were read from (the zero-width characters
// between them included); overlapping regions of all views are merged, named after the leftmost.
// The work per unit of text is bounded: at most 3 skeletons of at most 2 × MAX_DECODE_ROUNDS + 1
// readings each, 6 views scanned, about 9 decoded bytes per skeleton unit (each read into a skeleton only within a stretch that
// could be text), and a constant number of automaton steps per unit of every view. A text longer than
// WINDOW_UNITS is read in windows overlapping by WINDOW_OVERLAP, so the views of a 60 MB string take
// no more memory than those of one window.

import type { Automaton } from './secret-automaton.js';
import { buildAutomaton } from './secret-automaton.js';
import { forEachDecodedRun } from './encoded-runs.js';
import { foldCode } from './secret-forms.js';
import { skeletonOf, skeletonOfText } from './text-skeleton.js';
import { identityView, indexAt, reversedView, rot13View, unitAt, type Reading, type View } from './text-view.js';
import { CREDENTIAL_PREFIXES, SECRET_BODY_LENGTH, SHOWN_SECRET_CHARS } from '../secret-shapes.js';

export interface TaggedAutomaton {
  automaton: Automaton;
  /** Pattern index → the caller's tag for it. */
  tags: readonly number[];
}

/** Tag of a region found by the spec format alone (no known secret). */
export const LOOKALIKE_TAG = -1;

/** Which reading of the text a match was found in. */
export type Via = 'text' | 'reversed' | 'rot13' | 'base64' | 'base32' | 'hex';

export interface Region {
  start: number;
  end: number;
  tag: number;
  via: Via;
  /** For a lookalike: its first characters as the view read them (reversed text reads forwards). */
  preview?: string;
}

const LOOKALIKE_PREFIXES = buildAutomaton(CREDENTIAL_PREFIXES);

/**
 * The first MIN_FRAGMENT characters of a form are redacted even where the rest does not follow: a
 * check that quotes 80 characters of an answer may cut a key in two, and its first half is no preview
 * (a preview shows 12 characters).
 */
const MIN_FRAGMENT = 16;
const LOOKALIKE_HEX_DIGITS = SECRET_BODY_LENGTH;

/** Texts longer than this are read in windows; a disguise spread over more than WINDOW_OVERLAP units is not followed across one. */
const WINDOW_UNITS = 1 << 20;
const WINDOW_OVERLAP = 64 * 1024;

function isHexDigit(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x66);
}

/** Whether units `k` and `j` of `v` touch in the text, with nothing dropped between. */
function adjacent(v: View, k: number, j: number): boolean {
  return v.start[k] === v.end[j] || v.end[k] === v.start[j];
}

/** What every pass over texts with one set of automata shares. */
export interface Scanner {
  automata: readonly TaggedAutomaton[];
  /**
   * 1 for each unit a match can be read from: the characters of the forms (any case, `-` for `_`),
   * letters and digits (the spec's formats). A match never spans another unit, so the automata read
   * only the runs of these (a tight loop over a table skips the rest: an answer of 600 KB of `{},`
   * costs no automaton step).
   */
  readable: Uint8Array;
}

const ALWAYS_READABLE = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-';

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
  return { automata, readable };
}

/**
 * The regions of one reading, merged as they are pushed: a reading pushes its matches in the order
 * they end in it, so each overlaps the last one or none (a reading backwards pushes them from the end
 * of the text; the lists of all readings are sorted once, at the end).
 */
class Regions {
  readonly list: Region[] = [];
  push(start: number, end: number, tag: number, via: Via, preview?: string): void {
    const top = this.list.at(-1);
    if (top && start < top.end && end > top.start) {
      if (start < top.start) {
        top.start = start;
        top.tag = tag;
        if (preview !== undefined) top.preview = preview;
        else delete top.preview;
      }
      top.end = Math.max(top.end, end);
      return;
    }
    this.list.push(preview !== undefined ? { start, end, tag, via, preview } : { start, end, tag, via });
  }
}

/** No form is shorter (MIN_SECRET_LENGTH), and a lookalike is longer. */
const MIN_RUN = 8;

/** A reading of a view (text-view.ts), and the name its matches are found under. */
interface ScanReading extends Reading {
  via: Via;
}

/** Every match read in `r`, pushed to `into` as a region of the text. */
function scanReading(r: ScanReading, scanner: Scanner, into: Region[]): void {
  const { readable } = scanner;
  const out = new Regions();
  const n = r.v.length;
  for (let i = 0; i < n;) {
    while (i < n && readable[unitAt(r, i)] !== 1) i++;
    let end = i;
    while (end < n && readable[unitAt(r, end)] === 1) end++;
    if (end - i >= MIN_RUN) scanRun(r, i, end, scanner, out);
    i = end;
  }
  for (const region of out.list) into.push(region);
}

function scanView(v: View, scanner: Scanner, via: Via, into: Region[]): void {
  scanReading({ v, backwards: false, rot13: false, via }, scanner, into);
}

function scanRun(r: ScanReading, from: number, to: number, scanner: Scanner, out: Regions): void {
  const { automata } = scanner;
  const { v, via } = r;
  const states = new Int32Array(automata.length);
  let lookalikeState = 0;
  let lookalikeEnd = from;
  for (let i = from; i < to; i++) {
    const code = foldCode(unitAt(r, i));
    let best = -1;
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
      const first = i - length + 1;
      if (best < 0 || first < best) {
        best = first;
        bestTag = tagged.tags[pattern] ?? 0;
      }
    }
    // Units read are contiguous in the reading: the match is units [best, i].
    if (best >= 0) {
      const x = indexAt(r, best);
      const y = indexAt(r, i);
      out.push(Math.min(v.start[x] ?? 0, v.start[y] ?? 0), Math.max(v.end[x] ?? 0, v.end[y] ?? 0), bestTag, via);
    }
    lookalikeState = LOOKALIKE_PREFIXES.step(lookalikeState, code);
    const prefix = lookalikeState === 0 ? -1 : LOOKALIKE_PREFIXES.longest(lookalikeState);
    if (prefix >= 0 && i >= lookalikeEnd) {
      // The spec's 48 digits wherever they sit; more only while nothing was dropped between (the
      // skeleton joins words: "… 48 digits added" must not take "add").
      let end = i + 1;
      while (
        end < to &&
        isHexDigit(unitAt(r, end)) &&
        (end - i <= LOOKALIKE_HEX_DIGITS || adjacent(v, indexAt(r, end), indexAt(r, end - 1)))
      )
        end++;
      // A prefix is no hex digit, so the runs read here never overlap: linear in all.
      lookalikeEnd = end;
      if (end - i - 1 >= LOOKALIKE_HEX_DIGITS) {
        const first = i - LOOKALIKE_PREFIXES.lengthOf(prefix) + 1;
        let preview = '';
        for (let k = first; k < first + SHOWN_SECRET_CHARS; k++) preview += String.fromCharCode(unitAt(r, k));
        const x = indexAt(r, first);
        const y = indexAt(r, end - 1);
        const start = Math.min(v.start[x] ?? 0, v.start[y] ?? 0);
        out.push(start, Math.max(v.end[x] ?? 0, v.end[y] ?? 0), LOOKALIKE_TAG, via, preview);
      }
    }
  }
}

/** Sorted by start, overlapping ones merged, each named after its leftmost match. */
function merged(regions: Region[]): Region[] {
  regions.sort((a, b) => a.start - b.start || b.end - a.end);
  const list: Region[] = [];
  for (const r of regions) {
    const top = list.at(-1);
    if (top && r.start < top.end) top.end = Math.max(top.end, r.end);
    else list.push({ ...r });
  }
  return list;
}

/** Where an escape may start: only then can the text reversed or rot13'd decode to more than its skeleton does. */
function hasEscape(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x25 || c === 0x26 || c === 0x5c) return true;
  }
  return false;
}

/**
 * A skeleton read forwards, backwards, rot13'd and both: what is done one character at a time
 * commutes with reversing and rot13, so the skeleton reversed (or rot13'd) is the skeleton of the text
 * reversed (or rot13'd), but for escapes (below).
 */
function scanFourWays(v: View, via: Via, scanner: Scanner, out: Region[]): void {
  scanReading({ v, backwards: false, rot13: false, via }, scanner, out);
  scanReading({ v, backwards: true, rot13: false, via: via === 'text' ? 'reversed' : via }, scanner, out);
  scanReading({ v, backwards: false, rot13: true, via: via === 'text' ? 'rot13' : via }, scanner, out);
  scanReading({ v, backwards: true, rot13: true, via: via === 'text' ? 'rot13' : via }, scanner, out);
}

function regionsInWindow(text: string, from: number, to: number, scanner: Scanner, out: Region[]): void {
  const skeleton = skeletonOfText(text, from, to);
  scanFourWays(skeleton, 'text', scanner, out);
  // An escape reads differently backwards or rot13'd ("%5F" reversed is "F5%"): a text that holds
  // one is also read reversed and rot13'd before its skeleton is made.
  if (hasEscape(text, from, to)) {
    const plain = identityView(text, from, to);
    scanView(skeletonOf(reversedView(plain)), scanner, 'reversed', out);
    scanView(skeletonOf(rot13View(plain)), scanner, 'rot13', out);
  }
  scanDecoded(skeleton, scanner, out, ENCODING_LAYERS);
  // An encoding reversed or rot13'd: a known secret has forms for it, a key nobody named has not.
  scanDecoded(skeleton, scanner, out, 1, true, false);
  scanDecoded(skeleton, scanner, out, 1, false, true);
}

/**
 * Two layers of encoding are decoded: a key nobody named (found by its format alone) base64'd twice
 * has no form to be found by after one. Each layer reads only the stretches of the one before that
 * decoded to text, so a second layer costs as much as the first at most.
 */
const ENCODING_LAYERS = 2;

function scanDecoded(
  skeleton: View,
  scanner: Scanner,
  out: Region[],
  layers: number,
  backwards = false,
  rot13 = false,
): void {
  forEachDecodedRun(
    skeleton,
    ({ kind, view }) => {
      const decoded = skeletonOf(view);
      // A secret reversed or rot13'd, then encoded.
      scanFourWays(decoded, kind, scanner, out);
      if (layers > 1) scanDecoded(decoded, scanner, out, layers - 1);
    },
    backwards,
    rot13,
  );
}

/** The regions of `text` that hold a secret in any form, sorted and disjoint. */
export function findSecretRegions(text: string, scanner: Scanner): Region[] {
  const out: Region[] = [];
  if (text.length <= WINDOW_UNITS + WINDOW_OVERLAP) regionsInWindow(text, 0, text.length, scanner, out);
  else {
    for (let at = 0; at < text.length; at += WINDOW_UNITS)
      regionsInWindow(text, at, Math.min(text.length, at + WINDOW_UNITS + WINDOW_OVERLAP), scanner, out);
  }
  return merged(out);
}
