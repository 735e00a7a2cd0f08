// The fixed strings a secret can be found as, computed once when it is learned. A hostile or careless
// target echoes a key back in whatever form its stack produced: the secret part alone (the 48 hex
// digits after `spk_live_`/`sot_`: the whole secret, for anyone who knows the prefix),
// base64 of it (standard or URL-safe, of its UTF-8, UTF-16LE or UTF-16BE bytes, at any of
// the three alignments in the encoded bytes), base32 of it (five alignments), the hex digits of its
// bytes, or a piece of 16 characters or more from its middle. What is done one character at a time
// (format characters and spaces between, fullwidth forms, percent, `\u`, `\x`, HTML character
// references, letter case, `-` for `_`) is not listed here: the text is matched in its skeleton
// (text-skeleton.ts), which undoes every mix of them, and each form is held as its own skeleton.

import { CREDENTIAL_PREFIXES } from '../secret-shapes.js';
import { skeletonOf } from './text-skeleton.js';
import { identityView } from './text-view.js';

/** Secrets this short cannot be redacted safely: every message would be riddled with their previews. */
export const MIN_SECRET_LENGTH = 8;
/**
 * A secret longer than this is searched by its first MAX_SECRET_SEARCHED characters: any occurrence
 * of the whole contains them, and a 10,000-character token a target hands out costs no more than a key.
 */
const MAX_SECRET_SEARCHED = 256;

type FormKind = 'plain' | 'base64' | 'base32' | 'hex';

export interface SecretForm {
  /** Normalised (folded, no line breaks): what the automaton holds. */
  text: string;
  kind: FormKind;
}

/** The prefixes the spec gives keys and tokens: the rest alone is the secret too. */
const KNOWN_PREFIXES = CREDENTIAL_PREFIXES;

/** Letter case and `-`/`_` do not tell two spellings of a secret apart. */
export function foldCode(code: number): number {
  if (code >= 0x41 && code <= 0x5a) return code + 0x20;
  if (code === 0x2d) return 0x5f;
  return code;
}

/** A form as the matcher reads it: its skeleton (text-skeleton.ts), folded. */
function normalise(s: string): string {
  const { codes, length } = skeletonOf(identityView(s));
  let out = '';
  for (let i = 0; i < length; i++) out += String.fromCharCode(foldCode(codes[i] ?? 0));
  return out;
}

/**
 * The parts of base64 text that any occurrence of `bytes` produces, whatever its offset in the encoded
 * bytes (three alignments). Only characters fully determined by the secret's own bytes are kept.
 */
function base64Cores(bytes: Buffer): string[] {
  const cores: string[] = [];
  for (let pad = 0; pad < 3; pad++) {
    const encoded = Buffer.concat([Buffer.alloc(pad, 0), bytes])
      .toString('base64')
      .replace(/=+$/, '');
    // Characters touched by the padding bytes at the start, or by the unknown bytes after the end.
    const head = Math.ceil((pad * 8) / 6);
    const tail = Math.floor(((pad + bytes.length) * 8) / 6);
    const core = encoded.slice(head, tail);
    if (core.length >= MIN_SECRET_LENGTH) cores.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return cores;
}

/** RFC 4648 base32 (upper case, no padding). */
function base32(bytes: Uint8Array): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let out = '';
  let acc = 0;
  let held = 0;
  for (const b of bytes) {
    acc = ((acc << 8) | b) & 0xffff;
    held += 8;
    while (held >= 5) {
      held -= 5;
      out += alphabet[(acc >> held) & 31] ?? '';
    }
  }
  if (held > 0) out += alphabet[(acc << (5 - held)) & 31] ?? '';
  return out;
}

/** The parts of base32 text any occurrence of `bytes` produces, at each of its five alignments. */
function base32Cores(bytes: Buffer): string[] {
  const cores: string[] = [];
  for (let pad = 0; pad < 5; pad++) {
    const encoded = base32(Buffer.concat([Buffer.alloc(pad, 0), bytes]));
    const core = encoded.slice(Math.ceil((pad * 8) / 5), Math.floor(((pad + bytes.length) * 8) / 5));
    if (core.length >= MIN_SECRET_LENGTH) cores.push(core);
  }
  return cores;
}

/**
 * Every fixed form of `value` worth searching, normalised and without duplicates: the skeleton a text
 * is matched in undoes what is done one character at a time, and its reversed and rot13'd readings
 * (secret-scan.ts) reversal and rot13, so none of these is listed here.
 */
export function secretForms(value: string): SecretForm[] {
  const searched = value.slice(0, MAX_SECRET_SEARCHED);
  // A key's encoded forms are searched by its secret part alone: any encoding of the whole key holds
  // the encoding of that part (hex at once; base64 at the alignment the part starts on).
  let encoded = searched;
  for (const prefix of KNOWN_PREFIXES) {
    if (searched.toLowerCase().startsWith(prefix) && searched.length - prefix.length >= MIN_SECRET_LENGTH) {
      encoded = searched.slice(prefix.length);
    }
  }
  const forms = new Map<string, FormKind>();
  const add = (text: string, kind: FormKind): void => {
    const n = normalise(text);
    if (n.length >= MIN_SECRET_LENGTH && !forms.has(n)) forms.set(n, kind);
  };
  add(searched, 'plain');
  add(encoded, 'plain');
  for (const piece of middlePieces(encoded)) add(piece, 'plain');
  const utf8 = Buffer.from(encoded, 'utf8');
  add(utf8.toString('hex'), 'hex');
  for (const core of base32Cores(utf8)) add(core, 'base32');
  const utf16le = Buffer.from(encoded, 'utf16le');
  // UTF-16 big-endian is the little-endian bytes swapped in pairs (a Java or .NET stack's choice).
  const utf16be = Buffer.from(utf16le).swap16();
  for (const bytes of [utf8, utf16le, utf16be]) {
    for (const core of base64Cores(bytes)) add(core, 'base64');
  }
  return [...forms].map(([text, kind]) => ({ text, kind }));
}

/**
 * A piece of a secret is found from MIN_PIECE characters on: the scan already takes any head of a form
 * that long (secret-scan.ts, MIN_FRAGMENT), and these pieces, one starting at each later character,
 * make every stretch of MIN_PIECE characters from the middle a match too (overlapping matches merge
 * into one region). Sixteen hex digits are 64 bits: text that is no piece of the secret holds them by
 * chance about never, where eight (a short id, a commit hash prefix) would; a shorter piece also shows
 * less than the 12 characters a preview does. Pieces start within the first MAX_PIECE_START characters
 * (a key's or token's whole secret part), so a long secret costs no more than a key.
 */
export const MIN_PIECE = 16;
const MAX_PIECE_START = 64;

function middlePieces(part: string): string[] {
  const pieces: string[] = [];
  for (let at = 1; at + MIN_PIECE <= part.length && at <= MAX_PIECE_START; at++)
    pieces.push(part.slice(at, at + MIN_PIECE));
  return pieces;
}
