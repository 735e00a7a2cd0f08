// The disguises a hostile target (or a careless client) may give a secret, one function each, and the
// readings that undo them, written independently of the redactor (regular expressions and Buffer,
// not its skeleton or automata): the property test draws compositions of the disguises, the hostile
// target echoes them, and every test reads the outputs back through the readings.

function rot13(s: string): string {
  return s.replace(/[a-z]/gi, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
}

function reverse(s: string): string {
  return [...s].reverse().join('');
}

const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32(bytes: Buffer): string {
  let bits = '';
  for (const b of bytes) bits += b.toString(2).padStart(8, '0');
  let out = '';
  for (let i = 0; i < bits.length; i += 5) out += B32[parseInt(bits.slice(i, i + 5).padEnd(5, '0'), 2)];
  return out;
}

function unbase32(text: string): Buffer {
  let bits = '';
  for (const c of text) bits += B32.indexOf(c).toString(2).padStart(5, '0');
  const bytes: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

export type Disguise = (s: string) => string;

/** Each disguise by name: what a stack, a proxy or an attacker may do to a string. */
export const DISGUISES: Record<string, Disguise> = {
  'interleaved with U+200B': (s) => [...s].join('\u200b'),
  'interleaved with U+2060 and U+00AD': (s) => [...s].map((c, i) => c + (i % 2 ? '\u2060' : '\u00ad')).join(''),
  'spaced out': (s) => [...s].join(' '),
  fullwidth: (s) =>
    [...s].map((c) => (c > ' ' && c <= '~' ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c)).join(''),
  'percent-encoded': (s) =>
    [...Buffer.from(s)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  'percent-encoded twice': (s) =>
    [...Buffer.from(s)].map((b) => `%25${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  'HTML references': (s) => [...s].map((c) => `&#${c.codePointAt(0)};`).join(''),
  'JSON \\u escapes': (s) => [...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
  'upper case': (s) => s.toUpperCase(),
  reversed: reverse,
  rot13,
  base64: (s) => Buffer.from(s).toString('base64'),
  base64url: (s) => Buffer.from(s).toString('base64url'),
  base32: (s) => base32(Buffer.from(s)),
  hex: (s) => Buffer.from(s).toString('hex'),
};

/** `s` under the disguise of that name (unchanged for a name there is none of). */
export function disguised(name: string, s: string): string {
  return DISGUISES[name]?.(s) ?? s;
}

/** Invisible characters, separators, controls and combining marks dropped; NFKC. */
function visible(text: string): string {
  return text.normalize('NFKC').replace(/[\p{Cf}\p{Z}\p{Cc}\p{Mn}\p{Me}\s]/gu, '');
}

/** Percent escapes (as UTF-8), HTML references, \u, \x and JSON escapes decoded, repeatedly. */
function unescaped(text: string): string {
  let t = text;
  for (let round = 0; round < 6; round++) {
    const next = visible(
      t
        .replace(/(?:%[0-9a-f]{2})+/gi, (run) => Buffer.from(run.replace(/%/g, ''), 'hex').toString('utf8'))
        .replace(/&#x([0-9a-f]{1,6});?/gi, (_, h: string) => String.fromCodePoint(Math.min(0x10ffff, parseInt(h, 16))))
        .replace(/&#([0-9]{1,7});?/g, (_, d: string) => String.fromCodePoint(Math.min(0x10ffff, parseInt(d, 10))))
        .replace(/&(lowbar|shy|zwj|zwnj|nbsp|percnt|amp);/g, (_, n: string) => NAMED[n] ?? '')
        .replace(/\\u([0-9a-f]{4})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
        .replace(/\\x([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
        .replace(/\\([nrt"/\\])/g, (_, c: string) => (c === 'n' || c === 'r' || c === 't' ? '' : c)),
    );
    if (next === t) return t;
    t = next;
  }
  return t;
}

const NAMED: Record<string, string> = {
  lowbar: '_',
  shy: '\u00ad',
  zwj: '\u200d',
  zwnj: '\u200c',
  nbsp: ' ',
  percnt: '%',
  amp: '&',
};

/** The stretches of decoded bytes that read as text (UTF-8; NULs, as UTF-16 of ASCII has, dropped). */
function textIn(bytes: Buffer): string[] {
  return (
    bytes
      .toString('utf8')
      .replace(/\0/g, '')
      .match(/[^\uFFFD\x00-\x08\x0e-\x1f\x7f-\x9f]{8,}/g) ?? []
  );
}

/** Each distinct match of `re` in `text`: a report repeats the same body in many checks. */
function distinct(text: string, re: RegExp): Set<string> {
  return new Set(text.match(re) ?? []);
}

/** The distinct texts every run of `text` decodes to as base64, base32 and hex, at every phase. */
function decodedRuns(text: string): Set<string> {
  const out = new Set<string>();
  const add = (texts: string[]): void => texts.forEach((t) => out.add(t));
  for (const run of distinct(text, /[A-Za-z0-9+/_-]{11,}/g))
    for (let p = 0; p < 4; p++) add(textIn(Buffer.from(run.slice(p), 'base64')));
  for (const run of distinct(text, /[A-Z2-7]{13,}/g)) for (let p = 0; p < 8; p++) add(textIn(unbase32(run.slice(p))));
  for (const run of distinct(text, /[0-9a-f]{16,}/gi))
    for (let p = 0; p < 2; p++) add(textIn(Buffer.from(run.slice(p, p + ((run.length - p) & ~1)), 'hex')));
  return out;
}

let lastReadings: { text: string; depth: number; readings: string[] } | undefined;

/**
 * Every reading of `text` that undoes a disguise, or two of them one over the other: the text
 * unescaped, reversed, rot13'd, and every encoded run in it decoded (`depth` times over), then
 * unescaped, reversed and rot13'd again.
 */
function readingsOf(text: string, depth = 2): string[] {
  // Every secret of an output is looked for in the same readings: the last text's are kept.
  if (lastReadings?.text === text && lastReadings.depth === depth) return lastReadings.readings;
  const flat = (t: string): string[] => {
    const u = unescaped(t);
    const r = unescaped(reverse(t));
    return [u, reverse(u), rot13(u), rot13(reverse(u)), r, rot13(r), unescaped(rot13(t))];
  };
  const readings = flat(text);
  let level = readings;
  for (let d = 0; d < depth; d++) {
    const next: string[] = [];
    for (const reading of level) for (const decoded of decodedRuns(reading)) next.push(...flat(decoded));
    readings.push(...next);
    level = next;
  }
  lastReadings = { text, depth, readings };
  return readings;
}

/** The 16-character windows of `secret` (its part after a spec prefix; lower case) found in any reading of `text`. */
export function disguisedLeaks(text: string, secret: string, step = 1, depth = 2): string[] {
  const part = secret
    .replace(/^(spk_live_|sot_)/i, '')
    .toLowerCase()
    .replace(/-/g, '_');
  const windows = new Set<string>();
  for (let at = 0; at + 16 <= part.length; at += step) windows.add(part.slice(at, at + 16));
  if (part.length < 16) windows.add(part);
  const escaped = [...windows].map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const any = new RegExp(escaped.join('|'), 'i');
  const found: string[] = [];
  for (const reading of readingsOf(text, depth)) {
    const m = any.exec(reading.replace(/-/g, '_'));
    if (m) found.push(m[0]);
  }
  return found;
}
