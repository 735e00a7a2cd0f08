// The canonical skeleton a secret is matched in: what a text reads as once everything that does not
// change how it looks, or what it decodes to, is taken away. A hostile target echoes a key
// interleaved with U+200B, U+2060 or U+00AD (it looks exactly like the key), spaced out, in fullwidth
// forms, percent-encoded twice, as HTML references or JSON escapes; each of these reads as the key in
// the skeleton:
// - clean: format characters (Cf), separators and spaces (Z), controls (Cc) and combining marks (Mn,
//   Me) are dropped; every other character is replaced by its NFKC form (fullwidth `ｓ` is `s`);
// - decode: percent escapes (UTF-8 sequences as one character), HTML character references, `\u`,
//   `\x` and JSON's one-character escapes are read as what they stand for;
// then cleaned again, for as long as a round decodes something, at most MAX_DECODE_ROUNDS rounds.
// Letter case (and `-` for `_`) is folded where the skeleton is read (secret-forms.ts, foldCode),
// so base64 in it can still be decoded. Each round reads each unit once: at most
// 2 × MAX_DECODE_ROUNDS + 1 readings of the text, and the skeleton is never longer than the text but
// for NFKC expansions (at most 18 units for one character).

import { ViewBuilder, type View } from './text-view.js';

/** Percent-encoded twice, then as an HTML reference in a JSON string: four layers; eight is plenty. */
const MAX_DECODE_ROUNDS = 8;

/** 1 for a BMP code point the skeleton drops; built on the first non-ASCII character met. */
let dropTable: Uint8Array | undefined;
const DROPPED = /^[\p{Cf}\p{Z}\p{Cc}\p{Mn}\p{Me}]$/u;

function dropped(cp: number): boolean {
  if (cp < 0x80) return cp <= 0x20 || cp === 0x7f;
  if (cp > 0xffff) return DROPPED.test(String.fromCodePoint(cp));
  if (!dropTable) {
    dropTable = new Uint8Array(0x10000);
    for (let c = 0; c < 0x10000; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      if (DROPPED.test(String.fromCharCode(c))) dropTable[c] = 1;
    }
  }
  return dropTable[cp] === 1;
}

/** NFKC of one BMP code point, remembered (undefined: not computed yet). */
const nfkcCache: Array<string | undefined> = [];

function nfkcOf(cp: number): string {
  if (cp > 0xffff) return String.fromCodePoint(cp).normalize('NFKC');
  const known = nfkcCache[cp];
  if (known !== undefined) return known;
  const n = String.fromCharCode(cp).normalize('NFKC');
  nfkcCache[cp] = n;
  return n;
}

/** Drops what does not show and replaces every other character by its NFKC form. */
function clean(v: View): View {
  return cleanUnits(v.length, (i) => v.codes[i] ?? 0, v.start, v.end, 0);
}

/** `text[from, to)` cleaned, read from the string itself (no view of it is made first). */
function cleanText(text: string, from: number, to: number): View {
  return cleanUnits(to - from, (i) => text.charCodeAt(from + i), undefined, undefined, from);
}

/**
 * The one cleaning loop: unit i of the input is `unit(i)` and spans [start[i], end[i]) of the text
 * (or [offset + i, offset + i + 1) when no spans are given: the text itself).
 */
function cleanUnits(
  n: number,
  unit: (i: number) => number,
  start: Int32Array | undefined,
  end: Int32Array | undefined,
  offset: number,
): View {
  const out = new ViewBuilder(n);
  for (let i = 0; i < n; i++) {
    let cp = unit(i);
    if (cp < 0x80) {
      if (cp > 0x20 && cp !== 0x7f)
        out.push(cp, start ? (start[i] ?? 0) : offset + i, end ? (end[i] ?? 0) : offset + i + 1);
      continue;
    }
    let last = i;
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < n) {
      const low = unit(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
        last = i + 1;
      }
    }
    const s = start ? Math.min(start[i] ?? 0, start[last] ?? 0) : offset + i;
    const e = end ? Math.max(end[i] ?? 0, end[last] ?? 0) : offset + last + 1;
    i = last;
    if (dropped(cp)) continue;
    const nf = cp >= 0xd800 && cp <= 0xdfff ? String.fromCharCode(cp) : nfkcOf(cp);
    for (let k = 0; k < nf.length; k++) {
      const c = nf.charCodeAt(k);
      if (c < 0x80 ? c <= 0x20 || c === 0x7f : c < 0xd800 || c > 0xdfff ? dropped(c) : false) continue;
      out.push(c, s, e);
    }
  }
  return out.view();
}

function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  if (lower >= 0x61 && lower <= 0x66) return lower - 0x61 + 10;
  return -1;
}

function hexAt(codes: Uint16Array, at: number, count: number): number {
  if (at + count > codes.length) return -1;
  let v = 0;
  for (let i = 0; i < count; i++) {
    const h = hexValue(codes[at + i] ?? 0);
    if (h < 0) return -1;
    v = v * 16 + h;
  }
  return v;
}

/** The named references a disguise uses: invisible ones, and those of characters a key or escape is made of. */
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
  bsol: 0x5c,
  period: 0x2e,
  colon: 0x3a,
  semi: 0x3b,
  num: 0x23,
  percnt: 0x25,
  equals: 0x3d,
  plus: 0x2b,
  nbsp: 0xa0,
  shy: 0xad,
  zwj: 0x200d,
  zwnj: 0x200c,
  lrm: 0x200e,
  rlm: 0x200f,
  ensp: 0x2002,
  emsp: 0x2003,
  thinsp: 0x2009,
  NoBreak: 0x2060,
  ZeroWidthSpace: 0x200b,
  NewLine: 0x0a,
  Tab: 0x09,
};
const LONGEST_NAME = Math.max(...Object.keys(NAMED_REFERENCES).map((k) => k.length));

/**
 * What one escape at `at` decodes to: code units and the index after it; undefined when none starts
 * there. `from`, when given, is where each unit's own escape starts (a run of percent escapes).
 */
interface Decoded {
  units: number[];
  from?: number[];
  next: number;
}

function percentRun(codes: Uint16Array, at: number): Decoded | undefined {
  const bytes: number[] = [];
  let i = at;
  while (codes[i] === 0x25) {
    const b = hexAt(codes, i + 1, 2);
    if (b < 0) break;
    bytes.push(b);
    i += 3;
  }
  if (bytes.length === 0) return undefined;
  // Each character read from its own escapes: a match covers only the escapes it was read from.
  const units: number[] = [];
  const from: number[] = [];
  for (let b = 0; b < bytes.length;) {
    const { cp, size } = utf8At(bytes, b);
    if (cp > 0xffff) {
      units.push(0xd800 + ((cp - 0x10000) >> 10), 0xdc00 + ((cp - 0x10000) & 0x3ff));
      from.push(at + 3 * b, at + 3 * b);
    } else {
      units.push(cp);
      from.push(at + 3 * b);
    }
    b += size;
  }
  return { units, from, next: i };
}

/** The code point of the UTF-8 sequence at `i` and its size; an invalid byte is itself, size 1. */
export function utf8At(bytes: ArrayLike<number>, i: number): { cp: number; size: number } {
  const b = bytes[i] ?? 0;
  const size = b >= 0xf0 && b <= 0xf4 ? 4 : b >= 0xe0 ? (b <= 0xef ? 3 : 1) : b >= 0xc2 && b <= 0xdf ? 2 : 1;
  if (size === 1 || i + size > bytes.length) return { cp: b, size: 1 };
  let cp = size === 2 ? b & 0x1f : size === 3 ? b & 0x0f : b & 0x07;
  for (let k = 1; k < size; k++) {
    const c = bytes[i + k] ?? 0;
    if ((c & 0xc0) !== 0x80) return { cp: b, size: 1 };
    cp = (cp << 6) | (c & 0x3f);
  }
  const least = size === 2 ? 0x80 : size === 3 ? 0x800 : 0x10000;
  if (cp < least || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return { cp: b, size: 1 };
  return { cp, size };
}

function reference(codes: Uint16Array, at: number): Decoded | undefined {
  if (codes[at + 1] === 0x23) {
    const hex = ((codes[at + 2] ?? 0) | 0x20) === 0x78;
    let i = at + (hex ? 3 : 2);
    const first = i;
    let v = 0;
    while (i < codes.length && i - first < 8) {
      const c = codes[i] ?? 0;
      const d = hex ? hexValue(c) : c >= 0x30 && c <= 0x39 ? c - 0x30 : -1;
      if (d < 0) break;
      v = v * (hex ? 16 : 10) + d;
      i++;
    }
    if (i === first || v > 0x10ffff) return undefined;
    const next = codes[i] === 0x3b ? i + 1 : i;
    if (v > 0xffff) return { units: [0xd800 + ((v - 0x10000) >> 10), 0xdc00 + ((v - 0x10000) & 0x3ff)], next };
    return { units: [v], next };
  }
  let name = '';
  for (let i = at + 1; i < codes.length && i - at <= LONGEST_NAME + 1; i++) {
    const c = codes[i] ?? 0;
    if (c === 0x3b) {
      const code = Object.hasOwn(NAMED_REFERENCES, name) ? NAMED_REFERENCES[name] : undefined;
      return code === undefined ? undefined : { units: [code], next: i + 1 };
    }
    name += String.fromCharCode(c);
  }
  return undefined;
}

const ONE_CHAR_ESCAPES: Record<number, number> = {
  0x6e: 0x0a, // \n
  0x72: 0x0d, // \r
  0x74: 0x09, // \t
  0x62: 0x08, // \b
  0x66: 0x0c, // \f
  0x22: 0x22, // \"
  0x27: 0x27, // \'
  0x2f: 0x2f, // \/
  0x5c: 0x5c, // \\
};

function backslash(codes: Uint16Array, at: number): Decoded | undefined {
  const kind = codes[at + 1] ?? 0;
  // `\U0073` is `\u0073` upper-cased (JSON has no `\U`): read alike.
  const letter = kind | 0x20;
  if (letter === 0x75 || letter === 0x78) {
    const digits = letter === 0x75 ? 4 : 2;
    const v = hexAt(codes, at + 2, digits);
    if (v >= 0) return { units: [v], next: at + 2 + digits };
  }
  const one = ONE_CHAR_ESCAPES[kind];
  return one === undefined ? undefined : { units: [one], next: at + 2 };
}

/** One round of decoding; `changed` is false when nothing was decoded (the view is returned as is). */
function decode(v: View): { view: View; changed: boolean } {
  const { codes, start, end } = v;
  let changed = false;
  let out: ViewBuilder | undefined;
  for (let i = 0; i < v.length;) {
    const c = codes[i] ?? 0;
    const d =
      c === 0x25
        ? percentRun(codes, i)
        : c === 0x26
          ? reference(codes, i)
          : c === 0x5c
            ? backslash(codes, i)
            : undefined;
    if (d === undefined) {
      out?.push(c, start[i] ?? 0, end[i] ?? 0);
      i++;
      continue;
    }
    if (!out) {
      out = new ViewBuilder(v.length);
      for (let k = 0; k < i; k++) out.push(codes[k] ?? 0, start[k] ?? 0, end[k] ?? 0);
    }
    changed = true;
    for (let k = 0; k < d.units.length; k++) {
      const first = d.from?.[k] ?? i;
      const next = d.from?.[k + 1] ?? d.next;
      const last = Math.max(first, next - 1);
      const s = Math.min(start[first] ?? 0, start[last] ?? 0);
      const e = Math.max(end[first] ?? 0, end[last] ?? 0);
      out.push(d.units[k] ?? 0, s, e);
    }
    i = d.next;
  }
  return changed && out ? { view: out.view(), changed } : { view: v, changed: false };
}

/** The skeleton of a view: cleaned, then decoded and cleaned again while a round decodes anything. */
export function skeletonOf(v: View): View {
  return decodeRounds(clean(v));
}

/** The skeleton of `text[from, to)`. */
export function skeletonOfText(text: string, from = 0, to = text.length): View {
  return decodeRounds(cleanText(text, from, to));
}

function decodeRounds(cleaned: View): View {
  let view = cleaned;
  for (let round = 0; round < MAX_DECODE_ROUNDS; round++) {
    const d = decode(view);
    if (!d.changed) break;
    view = clean(d.view);
  }
  return view;
}
