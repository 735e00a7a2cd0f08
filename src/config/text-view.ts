// A view of a text: UTF-16 code units the secret matcher reads, each with the span [start, end) of
// the original text it was read from. The skeleton (text-skeleton.ts), a decoded run
// (encoded-runs.ts), the text reversed or rot13'd are views, so a match found in any of them is
// redacted as the span of the original it covers, however many characters were dropped or decoded
// on the way.

export interface View {
  readonly codes: Uint16Array;
  readonly start: Int32Array;
  readonly end: Int32Array;
  readonly length: number;
}

/** A view grown one code unit at a time (the transforms emit at most a few units per unit read). */
export class ViewBuilder {
  private codes: Uint16Array;
  private start: Int32Array;
  private end: Int32Array;
  length = 0;

  constructor(capacity: number) {
    const n = Math.max(16, capacity);
    this.codes = new Uint16Array(n);
    this.start = new Int32Array(n);
    this.end = new Int32Array(n);
  }

  push(code: number, start: number, end: number): void {
    if (this.length === this.codes.length) this.grow();
    this.codes[this.length] = code;
    this.start[this.length] = start;
    this.end[this.length] = end;
    this.length++;
  }

  private grow(): void {
    const n = this.codes.length * 2;
    const codes = new Uint16Array(n);
    codes.set(this.codes);
    const start = new Int32Array(n);
    start.set(this.start);
    const end = new Int32Array(n);
    end.set(this.end);
    this.codes = codes;
    this.start = start;
    this.end = end;
  }

  view(): View {
    return {
      codes: this.codes.subarray(0, this.length),
      start: this.start.subarray(0, this.length),
      end: this.end.subarray(0, this.length),
      length: this.length,
    };
  }
}

/** `text[from, to)` as it is. */
export function identityView(text: string, from = 0, to = text.length): View {
  const n = to - from;
  const codes = new Uint16Array(n);
  const start = new Int32Array(n);
  const end = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    codes[i] = text.charCodeAt(from + i);
    start[i] = from + i;
    end[i] = from + i + 1;
  }
  return { codes, start, end, length: n };
}

/** The same units read from the last to the first: a reversed secret reads forwards here. */
export function reversedView(v: View): View {
  const n = v.length;
  const codes = new Uint16Array(n);
  const start = new Int32Array(n);
  const end = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const j = n - 1 - i;
    let code = v.codes[j] ?? 0;
    // A surrogate pair stays a pair (high first), so NFKC still sees the character it spells.
    const prev = v.codes[j - 1] ?? 0;
    const next = v.codes[j + 1] ?? 0;
    if (code >= 0xdc00 && code <= 0xdfff && prev >= 0xd800 && prev <= 0xdbff) code = prev;
    else if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) code = next;
    codes[i] = code;
    start[i] = v.start[j] ?? 0;
    end[i] = v.end[j] ?? 0;
  }
  return { codes, start, end, length: n };
}

/**
 * How a view is read: forwards or backwards, as it is or rot13'd. Reading the skeleton backwards is
 * reading the text reversed, and reading it rot13'd the text rot13'd, without a copy of either (the
 * secret scan and the decoder of encoded runs read every view this way).
 */
export interface Reading {
  readonly v: View;
  readonly backwards: boolean;
  readonly rot13: boolean;
}

/** The index in the view of unit `k` of the reading. */
export function indexAt(r: Reading, k: number): number {
  return r.backwards ? r.v.length - 1 - k : k;
}

/** Unit `k` of the reading (rot13'd when the reading is). */
export function unitAt(r: Reading, k: number): number {
  const c = r.v.codes[indexAt(r, k)] ?? 0;
  return r.rot13 ? (ROT13[c] ?? c) : c;
}

/** Where unit `k` of the reading starts in the original text. */
export function startAt(r: Reading, k: number): number {
  return r.v.start[indexAt(r, k)] ?? 0;
}

/** Where unit `k` of the reading ends in the original text. */
export function endAt(r: Reading, k: number): number {
  return r.v.end[indexAt(r, k)] ?? 0;
}

/** ASCII letters rotated by 13: a rot13'd secret (or escape) reads as itself here. */
export function rot13View(v: View): View {
  const codes = new Uint16Array(v.length);
  for (let i = 0; i < v.length; i++) codes[i] = rot13Code(v.codes[i] ?? 0);
  return { codes, start: v.start, end: v.end, length: v.length };
}

/** ASCII letters rotated by 13, every other unit as it is (a table: the scan reads every unit through it). */
const ROT13 = new Uint16Array(0x10000).map((_, c) => rot13Code(c));

function rot13Code(c: number): number {
  if (c >= 0x41 && c <= 0x5a) return ((c - 0x41 + 13) % 26) + 0x41;
  if (c >= 0x61 && c <= 0x7a) return ((c - 0x61 + 13) % 26) + 0x61;
  return c;
}
