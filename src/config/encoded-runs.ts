// Runs of a skeleton that may be a secret encoded (base64 standard or URL-safe, base32, hex) are
// decoded at every phase (4 for base64, 8 for base32, 2 for hex: the encoding may start at any
// character of a run that the skeleton glued to its neighbours), as UTF-8 (an invalid byte stands for
// itself, so UTF-16 keeps its NULs, which the skeleton drops), and handed over as views whose units
// cover the encoded characters they were read from. Only stretches of decoded text that could be text
// (printable ASCII, NUL, tab, line breaks, valid multi-byte UTF-8) of MIN_SECRET_LENGTH or more are
// handed over: random bytes (what decoding ordinary text gives) almost never hold one.
// Each unit of the skeleton is decoded at most 4 + 8 + 2 times into at most 3/4, 5/8 and 1/2 of a
// byte: about 9 bytes read per unit, linear in the text.

import { MIN_SECRET_LENGTH } from './secret-forms.js';
import { utf8At } from './text-skeleton.js';
import { endAt, startAt, unitAt, ViewBuilder, type Reading, type View } from './text-view.js';

type EncodingKind = 'base64' | 'base32' | 'hex';

/** The shortest run each decoder reads: the encoding of MIN_SECRET_LENGTH bytes. */
const MIN_CHARS: Record<EncodingKind, number> = {
  base64: Math.ceil((MIN_SECRET_LENGTH * 8) / 6),
  base32: Math.ceil((MIN_SECRET_LENGTH * 8) / 5),
  hex: MIN_SECRET_LENGTH * 2,
};
const BITS: Record<EncodingKind, number> = { base64: 6, base32: 5, hex: 4 };

/** Value of a unit in each alphabet, -1 when it is none of it (base64: both alphabets at once). */
const VALUES: Record<EncodingKind, Int8Array> = {
  base64: alphabet('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', { '-': 62, _: 63 }),
  // Upper case only, as RFC 4648 writes it: lower-case text (most prose, glued by the skeleton) is not
  // decoded 8 times over; base32 of a secret in lower case is still found by its forms.
  base32: alphabet('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', {}),
  hex: alphabet('0123456789abcdef', {}, true),
};

function alphabet(chars: string, extra: Record<string, number>, anyCase = false): Int8Array {
  const t = new Int8Array(128).fill(-1);
  for (let i = 0; i < chars.length; i++) {
    const c = chars.charCodeAt(i);
    t[c] = i;
    if (anyCase && c >= 0x61 && c <= 0x7a) t[c - 0x20] = i;
    if (anyCase && c >= 0x41 && c <= 0x5a) t[c + 0x20] = i;
  }
  for (const [ch, v] of Object.entries(extra)) t[ch.charCodeAt(0)] = v;
  return t;
}

export interface DecodedRun {
  kind: EncodingKind;
  view: View;
}

/** Calls `found` with every stretch of text decoded from a run of `view` read forwards or backwards, as it is or rot13'd. */
export function forEachDecodedRun(
  view: View,
  found: (run: DecodedRun) => void,
  backwards = false,
  rot13 = false,
): void {
  const v: Reading = { v: view, backwards, rot13 };
  for (const kind of ['base64', 'base32', 'hex'] as const) {
    const table = VALUES[kind];
    const inAlphabet = (k: number): boolean => {
      const c = unitAt(v, k);
      return c < 0x80 && (table[c] ?? -1) >= 0;
    };
    for (let i = 0; i < view.length;) {
      while (i < view.length && !inAlphabet(i)) i++;
      let end = i;
      while (end < view.length && inAlphabet(end)) end++;
      if (end - i >= MIN_CHARS[kind]) {
        const phases = kind === 'base64' ? 4 : kind === 'base32' ? 8 : 2;
        for (let p = 0; p < phases && end - i - p >= MIN_CHARS[kind]; p++) decodeRun(v, kind, i + p, end, found);
      }
      i = end;
    }
  }
}

/** Reused by every decoding (each hands its stretches over before the next starts): no garbage per run. */
let scratchBytes = new Uint8Array(1024);
let scratchFirst = new Int32Array(1024);
let scratchLast = new Int32Array(1024);

/** Decodes units [from, to) of `v` as `kind` from their first unit on; bytes keep which units they came from. */
function decodeRun(v: Reading, kind: EncodingKind, from: number, to: number, found: (run: DecodedRun) => void): void {
  const bits = BITS[kind];
  const count = Math.floor(((to - from) * bits) / 8);
  if (scratchBytes.length < count) {
    scratchBytes = new Uint8Array(count * 2);
    scratchFirst = new Int32Array(count * 2);
    scratchLast = new Int32Array(count * 2);
  }
  const bytes = scratchBytes.subarray(0, count);
  const firstUnit = scratchFirst;
  const lastUnits = scratchLast;
  let acc = 0;
  let held = 0;
  let b = 0;
  const table = VALUES[kind];
  for (let i = from; i < to && b < count; i++) {
    acc = ((acc << bits) | (table[unitAt(v, i)] ?? 0)) & 0xffff;
    held += bits;
    if (held >= 8) {
      held -= 8;
      bytes[b] = (acc >> held) & 0xff;
      // The byte's bits are the `held + 8`th to the `held + 1`th back from this unit's last.
      firstUnit[b] = i - Math.floor((held + 7) / bits);
      lastUnits[b] = i - Math.floor(held / bits);
      b++;
    }
  }
  const lastUnit = (k: number): number => lastUnits[k] ?? to - 1;
  handOver(v, kind, bytes, firstUnit, lastUnit, found);
}

/** A decoded character a secret's text can be made of. */
function plausible(cp: number, size: number): boolean {
  if (size > 1) return true;
  return (cp >= 0x20 && cp < 0x7f) || cp === 0 || cp === 0x09 || cp === 0x0a || cp === 0x0d;
}

function handOver(
  v: Reading,
  kind: EncodingKind,
  bytes: Uint8Array,
  firstUnit: Int32Array,
  lastUnit: (k: number) => number,
  found: (run: DecodedRun) => void,
): void {
  let out: ViewBuilder | undefined;
  let stretch = 0;
  let stretchStart = 0;
  // Handed over once the bytes are read: what `found` does may decode again, into the same scratch.
  const stretches: View[] = [];
  const flush = (): void => {
    if (out && out.length >= MIN_SECRET_LENGTH) stretches.push(out.view());
    out = undefined;
  };
  for (let k = 0; k < bytes.length;) {
    const b0 = bytes[k] ?? 0;
    // Most bytes of most decodings are no text: judged before a sequence is read.
    if (b0 < 0x80 && !plausible(b0, 1)) {
      flush();
      stretch = 0;
      k++;
      continue;
    }
    const { cp, size } = b0 < 0x80 ? { cp: b0, size: 1 } : utf8At(bytes, k);
    if (!plausible(cp, size)) {
      flush();
      stretch = 0;
      k += size;
      continue;
    }
    if (stretch === 0) stretchStart = k;
    stretch++;
    const a = firstUnit[k] ?? 0;
    const z = lastUnit(k + size - 1);
    const s = Math.min(startAt(v, a), startAt(v, z));
    const e = Math.max(endAt(v, a), endAt(v, z));
    // Units are emitted only once a stretch is long enough to be worth a skeleton.
    if (!out && stretch >= MIN_SECRET_LENGTH) {
      out = new ViewBuilder(64);
      for (let j = stretchStart; j < k;) {
        const prev = utf8At(bytes, j);
        pushCodePoint(out, prev.cp, v, firstUnit[j] ?? 0, lastUnit(j + prev.size - 1));
        j += prev.size;
      }
    }
    if (out) pushCodePoint(out, cp, v, a, z, s, e);
    k += size;
  }
  flush();
  for (const view of stretches) found({ kind, view });
}

function pushCodePoint(out: ViewBuilder, cp: number, v: Reading, a: number, z: number, s?: number, e?: number): void {
  const start = s ?? Math.min(startAt(v, a), startAt(v, z));
  const end = e ?? Math.max(endAt(v, a), endAt(v, z));
  if (cp > 0xffff) {
    out.push(0xd800 + ((cp - 0x10000) >> 10), start, end);
    out.push(0xdc00 + ((cp - 0x10000) & 0x3ff), start, end);
  } else out.push(cp, start, end);
}
