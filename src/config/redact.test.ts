import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { JsonDecimal } from '../json/lossless.js';
import { createRedactor, DEEP_VALUE_MARKER, MAX_VALUE_DEPTH, previewSecret } from './redact.js';

const KEY = 'spk_live_' + '0123456789abcdef'.repeat(3);
const TOKEN = 'sot_' + 'fedcba9876543210'.repeat(3);
const TOKEN2 = 'sot_' + 'aaaabbbbccccdddd'.repeat(3);

function escapeAll(s: string): string {
  return [...s].map((c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0')).join('');
}

/** What bash makes of a word: the test for "copy-pasteable once the variables are exported". */
function bashEcho(word: string, env: Record<string, string>): string {
  return execFileSync('bash', ['-c', `printf %s ${word}`], { env: { PATH: process.env.PATH, ...env } }).toString();
}

describe('previewSecret', () => {
  it('shows the first 12 characters and an ellipsis', () => {
    expect(previewSecret(KEY)).toBe('spk_live_012…');
  });
  it('never shows more than half of a short secret', () => {
    expect(previewSecret('hunter2hunter')).toBe('hunter…');
  });
});

describe('createRedactor', () => {
  const redactor = () => createRedactor([{ value: KEY, envVar: 'SVC_PARTNER_KEY' }]);

  it('replaces a secret wherever it appears', () => {
    expect(redactor().text(`key=${KEY}; again ${KEY}`)).toBe('key=spk_live_012…; again spk_live_012…');
  });

  it('catches JSON-escaped and percent-encoded forms', () => {
    const r = redactor();
    const escaped = `{"echo":"${escapeAll(KEY)}"}`;
    const out = r.text(escaped);
    expect(out).not.toContain('0123456789abcdef0123');
    expect(JSON.parse(out)).toEqual({ echo: 'spk_live_012…' });
    const pct = [...KEY].map((c) => '%' + c.charCodeAt(0).toString(16).toUpperCase()).join('');
    expect(r.text(`/runs?k=${pct}`)).toBe('/runs?k=spk_live_012…');
  });

  it('redacts format lookalikes nobody registered', () => {
    const unknown = 'spk_live_' + 'f'.repeat(48);
    expect(redactor().text(`x ${unknown} ${TOKEN} y`)).toBe('x spk_live_fff… sot_fedcba98… y');
  });

  it('learns secrets at run time and tells listeners', () => {
    const r = redactor();
    const secret = 'webhook-secret-with-"quotes"/and/slashes';
    const seen: string[] = [];
    r.onAdd((s) => seen.push(s.envVar));
    r.add({ value: secret, envVar: 'SVC_WEBHOOK_SECRET' });
    r.add({ value: secret, envVar: 'SVC_WEBHOOK_SECRET' });
    expect(seen).toEqual(['SVC_WEBHOOK_SECRET']);
    expect(r.text(JSON.stringify({ s: secret }))).toBe('{"s":"webhook-secr…"}');
  });

  it('deep-copies values with every string redacted and other values kept', () => {
    const r = redactor();
    const dec = new JsonDecimal('1.5');
    const input = { a: [KEY, 1, 2n ** 64n, dec, null, true], [KEY]: { b: `x${KEY}` } };
    const out = r.value(input);
    expect(out).toEqual({
      a: ['spk_live_012…', 1, 2n ** 64n, dec, null, true],
      'spk_live_012…': { b: 'xspk_live_012…' },
    });
    expect(out.a[3]).toBe(dec);
    expect(input.a[0]).toBe(KEY);
  });

  it(`takes a value nested 100,000 levels without recursion: the first ${MAX_VALUE_DEPTH} copied and redacted, the rest cut with a marker`, () => {
    const nest = (levels: number): unknown => {
      let deep: unknown = `leaf ${KEY}`;
      for (let i = 0; i < levels; i++) deep = i % 2 === 0 ? [deep] : { k: deep, n: KEY };
      return deep;
    };
    const walk = (v: unknown): { levels: number; at: unknown; keys: string[] } => {
      let at = v;
      let levels = 0;
      const keys: string[] = [];
      while (typeof at === 'object' && at !== null) {
        if (!Array.isArray(at)) keys.push(String((at as Record<string, unknown>).n));
        at = Array.isArray(at) ? at[0] : (at as Record<string, unknown>).k;
        levels++;
      }
      return { levels, at, keys };
    };
    const cut = walk(redactor().value(nest(100_000)));
    expect(cut.levels).toBe(MAX_VALUE_DEPTH);
    expect(cut.at).toBe(DEEP_VALUE_MARKER);
    expect(new Set(cut.keys)).toEqual(new Set(['spk_live_012…']));
    // Up to the bound, the whole value, its leaf redacted.
    const whole = walk(redactor().value(nest(MAX_VALUE_DEPTH)));
    expect([whole.levels, whole.at]).toEqual([MAX_VALUE_DEPTH, 'leaf spk_live_012…']);
  });

  it('keeps an own "__proto__" key of parsed JSON a key, not a prototype', () => {
    const out = redactor().value(JSON.parse(`{"__proto__":{"x":"${KEY}"}}`) as Record<string, unknown>);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual({ x: 'spk_live_012…' });
  });

  it('names learned org tokens SVC_ORG_TOKEN, SVC_ORG_TOKEN_2, …', () => {
    const r = redactor();
    r.add({ value: TOKEN, envVar: 'SVC_ORG_TOKEN' });
    r.add({ value: TOKEN2, envVar: 'SVC_ORG_TOKEN' });
    expect(r.secrets().map((s) => s.envVar)).toEqual(['SVC_PARTNER_KEY', 'SVC_ORG_TOKEN', 'SVC_ORG_TOKEN_2']);
    expect(r.shell(`${TOKEN}|${TOKEN2}`)).toBe(`"$SVC_ORG_TOKEN"'|'"$SVC_ORG_TOKEN_2"`);
  });

  it('renders shell words that bash reads back to the original', () => {
    const r = redactor();
    r.add({ value: TOKEN, envVar: 'SVC_ORG_TOKEN' });
    const nasty = `it's "$HOME" \`id\` \\ ${KEY}\n${TOKEN}!`;
    const word = r.shell(nasty);
    expect(word).not.toContain(KEY);
    expect(word).not.toContain(TOKEN);
    expect(bashEcho(word, { SVC_PARTNER_KEY: KEY, SVC_ORG_TOKEN: TOKEN, HOME: '/nowhere' })).toBe(nasty);
    expect(r.shell('')).toBe(`''`);
  });
});

describe('createRedactor: every form a secret can leave in', () => {
  const key = `spk_live_${'0123456789abcdef'.repeat(3)}`;
  const secret = 'whsec-Example+Secret/42';
  const r = createRedactor([
    { value: key, envVar: 'SVC_PARTNER_KEY' },
    { value: secret, envVar: 'SVC_WEBHOOK_SECRET' },
  ]);
  const leaks = (out: string): boolean =>
    out.includes(key.slice(12)) || out.toLowerCase().includes(key.slice(12).toLowerCase()) || out.includes(secret);

  it('HTTP Basic: base64(key:) in an Authorization header', () => {
    const header = `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
    const out = r.text(header);
    expect(out).not.toContain(Buffer.from(`${key}:`).toString('base64').slice(4, 40));
    expect(out).toContain('[base64 of spk_live_012…]');
  });

  it('base64 at every alignment, and base64url', () => {
    for (const before of ['', 'x', 'xy', 'xyz']) {
      const b64 = Buffer.from(`${before}${key} and ${secret}!`).toString('base64');
      const out = r.text(`body: ${b64}`);
      expect(out, before).toMatch(/\[base64 of spk_live_012…\]/);
      expect(out, before).toMatch(/\[base64 of whsec-Examp…\]/);
      const url = Buffer.from(`${before}${secret}`).toString('base64url');
      expect(r.text(url), before).toMatch(/\[base64 of whsec-Examp…\]/);
    }
  });

  it('any letter case, percent-encoding and \\u escapes', () => {
    for (const form of [
      key.toUpperCase(),
      encodeURIComponent(secret),
      secret.toUpperCase(),
      key.replace('_', '\\u005f'),
      key.replace('_', '%5F'),
    ]) {
      const out = r.text(`x ${form} y`);
      expect(leaks(out), `${form} → ${out}`).toBe(false);
      expect(out).toMatch(/…/);
    }
  });
});
