import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createRedactor } from './redact.js';
import { MIN_PIECE } from './secret-forms.js';
import { automatonSteps } from './secret-automaton.js';

const HEX = '0123456789abcdef'.repeat(3);
const KEY = `spk_live_${HEX}`;
const TOKEN = `sot_${'fedcba9876543210'.repeat(3)}`;

const redactor = () =>
  createRedactor([
    { value: KEY, envVar: 'SVC_PARTNER_KEY' },
    { value: TOKEN, envVar: 'SVC_ORG_TOKEN' },
  ]);

/**
 * Told apart from the redactor's own reading: the text lower-cased, every line break and escape of one
 * character decoded by regular expressions of this test, then searched for 16 hex digits of the secret
 * part of KEY or TOKEN (the preview shows at most its first 3).
 */
function leaks(out: string): boolean {
  const decoded = out
    .replace(/\\[nr]|[\r\n]/g, '')
    .replace(/\\u([0-9a-f]{4})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/\\x([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/&#x([0-9a-f]+);?/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/&#([0-9]+);?/g, (_, d: string) => String.fromCharCode(parseInt(d, 10)))
    .toLowerCase();
  return [HEX, TOKEN.slice(4)].some((part) => {
    for (let at = 0; at + 16 <= part.length; at += 4) if (decoded.includes(part.slice(at, at + 16))) return true;
    return false;
  });
}

function b64(s: string, encoding: BufferEncoding = 'utf8', url = false): string {
  return Buffer.from(s, encoding).toString(url ? 'base64url' : 'base64');
}

function wrap(s: string, every: number, eol = '\n'): string {
  return (s.match(new RegExp(`.{1,${every}}`, 'g')) ?? []).join(eol);
}

/** Forms a target or a careless client may echo, each with the encoded text that must not survive. */
const FORMS: Array<[string, string, string]> = [
  ['the secret part alone', `key ${HEX} is not known`, HEX],
  ['the token part alone', `token ${TOKEN.slice(4)}.`, TOKEN.slice(4)],
  ['upper case', KEY.toUpperCase(), HEX.toUpperCase()],
  ['mixed case', KEY.replace(/[a-f]/g, (c, i: number) => (i % 2 ? c.toUpperCase() : c)), HEX.slice(8, 30)],
  ['- for _', KEY.replace(/_/g, '-'), HEX],
  ['every character percent-encoded', [...KEY].map((c) => `%${c.charCodeAt(0).toString(16)}`).join(''), '%30%31'],
  ['only _ percent-encoded', KEY.replace(/_/g, '%5F'), HEX],
  ['every character \\u-escaped', [...KEY].map((c) => `\\u00${c.charCodeAt(0).toString(16)}`).join(''), '\\u0030'],
  ['only _ as \\x5f', KEY.replace(/_/g, '\\x5f'), HEX],
  ['every character \\x-escaped', [...KEY].map((c) => `\\x${c.charCodeAt(0).toString(16)}`).join(''), '\\x30\\x31'],
  [
    'every character \\u-escaped, quoted inside a JSON body',
    JSON.stringify({ m: [...KEY].map((c) => `\\u00${c.charCodeAt(0).toString(16)}`).join('') }),
    '\\\\u0030',
  ],
  ['HTML decimal references', [...KEY].map((c) => `&#${c.charCodeAt(0)};`).join(''), '&#48;&#49;'],
  ['HTML hex references', [...KEY].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join(''), '&#x30;&#x31;'],
  ['HTML named _', KEY.replace(/_/g, '&lowbar;'), HEX],
  [
    'cut after 25 characters (a quote of 80 characters of an answer)',
    `"key ${KEY.toUpperCase().slice(0, 25)}`,
    HEX.slice(0, 16),
  ],
  ['its secret part cut after 20 characters', `${HEX.slice(0, 20)}"`, HEX.slice(0, 20)],
  ['split by a line break', `${KEY.slice(0, 30)}\n${KEY.slice(30)}`, HEX.slice(25)],
  ['split by CRLF', `${KEY.slice(0, 20)}\r\n${KEY.slice(20)}`, HEX.slice(15)],
  ['split by an escaped \\n in JSON', `"${KEY.slice(0, 25)}\\n${KEY.slice(25)}"`, HEX.slice(20)],
  ['hex of its bytes', Buffer.from(KEY).toString('hex'), Buffer.from(HEX).toString('hex').slice(10, 60)],
  ['hex of its bytes, upper case', Buffer.from(KEY).toString('hex').toUpperCase(), '3031323334353637'],
];
for (const before of ['', 'x', 'xy']) {
  const std = b64(`${before}${KEY}`);
  FORMS.push([`base64 after ${before.length} byte(s)`, std, std.slice(8, 50)]);
  const url = b64(`${before}${KEY}`, 'utf8', true);
  FORMS.push([`base64url after ${before.length} byte(s)`, url, url.slice(8, 50)]);
  const utf16 = b64(`${before}${KEY}`, 'utf16le');
  FORMS.push([`base64 of UTF-16 after ${before.length} character(s)`, utf16, utf16.slice(12, 60)]);
  for (const every of [16, 17, 18, 19, 20, 76]) {
    const wrapped = wrap(b64(`Authorization: ${before}${KEY} ok`), every, every % 2 ? '\r\n' : '\n');
    FORMS.push([`base64 wrapped every ${every} after ${before.length}`, wrapped, std.slice(30, 46)]);
  }
}

describe('the redactor: every form a secret can leave in', () => {
  const r = redactor();
  it.each(FORMS)('%s', (_what, form, encoded) => {
    const out = r.text(`echo: ${form} (end)`);
    expect(leaks(out), out).toBe(false);
    expect(out, out).not.toContain(encoded);
    expect(out).toContain('…');
    expect(out.startsWith('echo: ')).toBe(true);
    expect(out.endsWith('(end)')).toBe(true);
  });

  it('shows at most the first 12 characters of a secret', () => {
    const out = r.text(`a ${KEY} b ${b64(KEY)} c ${Buffer.from(KEY).toString('hex')}`);
    // Encoded runs are decoded: the whole key, its prefix too, is one region of the encoded text.
    expect(out).toBe(`a spk_live_012… b [base64 of spk_live_012…] c [hex of spk_live_012…]`);
  });

  it('knows keys and tokens by their format alone, in any case', () => {
    const unknown = `SPK_LIVE_${'AB'.repeat(24)}`;
    expect(r.text(`x ${unknown} y`)).toBe('x SPK_LIVE_ABA… y');
  });

  it('takes a 10,000-character secret and hundreds of them without throwing, in bounded steps', () => {
    const big = createRedactor([]);
    const long = 'a'.repeat(10_000);
    big.add({ value: long, envVar: 'SVC_ORG_TOKEN' });
    for (let i = 0; i < 500; i++)
      big.add({ value: `sot_${i.toString(16).padStart(48, '0')}`, envVar: 'SVC_ORG_TOKEN' });
    const out = big.text(`{"org_token":"${long}", "again": "sot_${(77).toString(16).padStart(48, '0')}"}`);
    expect(out).not.toContain('a'.repeat(300));
    expect(out).not.toContain('0000000004d');
    expect(big.secrets()).toHaveLength(501);
  });

  it('a text without secrets comes back as it was', () => {
    const text = 'plain text: 0123 %zz \\q &amp; &#; \n\r\n end';
    expect(r.text(text)).toBe(text);
  });
});

describe('the redactor is linear (steps counted, not time)', () => {
  /** 2,000 tokens sharing a 44-character prefix: the case where a search by shared prefixes degrades. */
  const secrets = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      value: `sot_${'a'.repeat(40)}${i.toString(16).padStart(8, '0')}`,
      envVar: 'SVC_ORG_TOKEN',
    }));
  /** Text of near misses: every secret's shared prefix, again and again, with escapes (both passes run). */
  const text = (chars: number) => {
    const unit = `sot_${'a'.repeat(40)}%41\\u0061 `;
    return unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars);
  };
  function steps(n: number, chars: number): { build: number; read: number } {
    const before = automatonSteps.count;
    const r = createRedactor([]);
    for (const s of secrets(n)) r.add(s);
    const built = automatonSteps.count;
    r.text(text(chars));
    return { build: built - before, read: automatonSteps.count - built };
  }

  it('2,000 secrets × 1 MB of text: steps grow with the text and barely with the secrets', () => {
    const small = steps(1000, 500_000);
    const big = steps(2000, 1_000_000);
    // Twice the text and twice the secrets: one more automaton to read with, so at most 2 × (12/11) more reading steps.
    expect(big.read / small.read).toBeLessThan(2.4);
    // Each character of text costs at most a few dozen steps per automaton (log2(2000) + 1 = 12 of them).
    expect(big.read / 1_000_000).toBeLessThan(2 * 12 * 40);
    // Building: each form's characters are rebuilt at most log2(n) + 1 times.
    expect(big.build / small.build).toBeLessThan(2.6);
  }, 120_000);
});

describe('pieces of a secret and UTF-16BE base64', () => {
  // Not periodic, so a piece from the middle is no head of the secret part.
  const part = createHash('sha256').update('a key of this test').digest('hex').slice(0, 48);
  const key = `spk_live_${part}`;
  const r = () => createRedactor([{ value: key, envVar: 'SVC_PARTNER_KEY' }]);

  it(`redacts any piece of ${MIN_PIECE} characters or more from the middle of a secret, in any case`, () => {
    for (const at of [1, 7, 16, 31, 32]) {
      const piece = part.slice(at, at + MIN_PIECE);
      const out = r().text(`key ${piece} is not known`);
      expect(out, piece).toBe('key spk_live_… is not known'.replace('spk_live_…', `${key.slice(0, 12)}…`));
      expect(r().text(`key ${piece.toUpperCase()}.`)).not.toContain(piece.toUpperCase());
    }
    // A longer stretch is one region, not a piece shown beside a preview.
    expect(r().text(`[${part.slice(5, 40)}]`)).toBe(`[${key.slice(0, 12)}…]`);
  });

  it(`leaves a piece shorter than ${MIN_PIECE} characters, other hex and plain text as they were`, () => {
    const short = part.slice(10, 10 + MIN_PIECE - 1);
    const other = createHash('sha256').update('something else').digest('hex');
    const text = `id ${short}; sha256 ${other}; commit ${part.slice(20, 27)}; a sentence with words.`;
    expect(r().text(text)).toBe(text);
  });

  it('redacts base64 of the UTF-16BE bytes (and LE) at every alignment, wrapped or not', () => {
    for (const encoding of ['utf16le', 'utf16be'] as const)
      for (const lead of ['', 'x', 'xy']) {
        const le = Buffer.from(`${lead}${key}`, 'utf16le');
        const bytes = encoding === 'utf16be' ? le.swap16() : le;
        const encoded = bytes.toString('base64');
        const out = r().text(`echo ${wrap(encoded, 19)} end`);
        const core = Buffer.from(part, 'utf16le').swap16().toString('base64').slice(4, 36);
        if (encoding === 'utf16be') expect(out).not.toContain(core.slice(0, 16));
        expect(out, `${encoding} ${lead}`).toContain('[base64 of ');
      }
  });
});
