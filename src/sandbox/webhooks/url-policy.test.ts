import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCidr } from './ip-address.js';
import { checkWebhookUrl } from './url-policy.js';
import { vendorFile } from '../../../test/support/vendor-file.js';

interface Vectors {
  ipv4: Array<[string, string]>;
  ipv6: Array<[string, string]>;
  examples: { refused: string[]; allowed: string[] };
}
const vectors = JSON.parse(readFileSync(vendorFile('vectors/webhook-url-blocklist.json'), 'utf8')) as Vectors;
const strict = { allowLoopback: false };

/** First and last address of a range, written as URL hosts. */
function bounds(cidr: string): [string, string] {
  const { bytes, bits } = parseCidr(cidr, '');
  const last = Uint8Array.from(bytes);
  for (let bit = bits; bit < bytes.length * 8; bit++) last[bit >> 3]! |= 0x80 >> (bit & 7);
  if (bytes.length === 4) return [bytes.join('.'), last.join('.')];
  const v6 = (b: Uint8Array) =>
    `[${Array.from({ length: 8 }, (_, i) => ((b[2 * i]! << 8) | b[2 * i + 1]!).toString(16)).join(':')}]`;
  return [v6(bytes), v6(last)];
}

describe('webhook URL policy', () => {
  it.each(vectors.examples.refused)('refuses %s', (url) => {
    const verdict = checkWebhookUrl(url, strict);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.reason.length).toBeGreaterThan(3);
  });

  it.each(vectors.examples.allowed)('allows %s', (url) => {
    expect(checkWebhookUrl(url, strict)).toEqual({ ok: true });
  });

  it.each([...vectors.ipv4, ...vectors.ipv6])('refuses the first and last address of %s (%s)', (cidr) => {
    for (const host of bounds(cidr)) expect(checkWebhookUrl(`https://${host}/hook`, strict).ok, host).toBe(false);
  });

  it('judges non-canonical IPv4 spellings after URL parsing', () => {
    for (const url of [
      'https://127.1/h',
      'https://0x0a.0.0.1/h',
      'https://3232235777/h',
      'https://[::ffff:10.0.0.1]/h',
      'https://[0:0:0:0:0:ffff:7f00:1]/h',
      'https://svc.INTERNAL./h',
    ]) {
      expect(checkWebhookUrl(url, strict).ok, url).toBe(false);
    }
    expect(checkWebhookUrl('https://1572395042/h', strict)).toEqual({ ok: true }); // 93.184.216.34
    expect(checkWebhookUrl('not a url', strict).ok).toBe(false);
    expect(checkWebhookUrl('ftp://hooks.example.com/', strict).ok).toBe(false);
  });

  it('the operator switch allows http and https on loopback only', () => {
    const loose = { allowLoopback: true };
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'https://127.0.0.1/hook',
      'http://localhost:3000/x',
      'http://[::1]:9/x',
      'http://127.5.6.7/x',
      'http://2130706433/x',
    ]) {
      expect(checkWebhookUrl(url, loose), url).toEqual({ ok: true });
      expect(checkWebhookUrl(url, strict).ok, url).toBe(false);
    }
    for (const url of [
      'http://10.0.0.1/x',
      'http://hooks.example.com/x',
      'https://192.168.1.1/x',
      'http://api.localhost/x',
      'https://[fe80::1]/x',
    ]) {
      expect(checkWebhookUrl(url, loose).ok, url).toBe(false);
    }
  });
});
