// The certifier's own reading of Events, delivery rule 3, against the shared block-list vectors.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { vendorFile } from '../../test/support/vendor-file.js';
import { judgeAddress, judgeWebhookUrl } from './deliverable-url.js';

interface Vectors {
  ipv4: Array<[string, string]>;
  ipv6: Array<[string, string]>;
  examples: { refused: string[]; allowed: string[] };
}
const vectors = JSON.parse(readFileSync(vendorFile('vectors/webhook-url-blocklist.json'), 'utf8')) as Vectors;

describe('webhook URL rule (Events, delivery rule 3)', () => {
  it.each(vectors.examples.refused)('refuses %s', (url) => {
    expect(judgeWebhookUrl(url).ok).toBe(false);
  });

  it.each(vectors.examples.allowed)('allows %s', (url) => {
    expect(judgeWebhookUrl(url)).toMatchObject({ ok: true });
  });

  it('refuses the first and last address of every listed range', () => {
    const v4 = vectors.ipv4.flatMap(([cidr]) => {
      const [net, len] = cidr.split('/') as [string, string];
      const n = net.split('.').reduce((a, p) => a * 256 + Number(p), 0);
      const last = n + 2 ** (32 - Number(len)) - 1;
      const dotted = (x: number): string => [24, 16, 8, 0].map((s) => Math.floor(x / 2 ** s) % 256).join('.');
      return [dotted(n), dotted(last)];
    });
    expect(v4.filter((ip) => judgeAddress(ip) === undefined)).toEqual([]);
    const v6 = vectors.ipv6
      .map(([cidr]) => cidr.split('/')[0]!)
      .filter((ip) => !['::ffff:0:0', '64:ff9b::', '2002::'].includes(ip));
    expect(v6.filter((ip) => judgeAddress(ip) === undefined)).toEqual([]);
  });

  it('judges IPv4 forms embedded in IPv6 by the IPv4 address', () => {
    // The range named is the embedded IPv4 address's (10.0.0.1 private, 127.0.0.1 loopback, 192.168.1.1 private).
    expect(judgeAddress('::ffff:10.0.0.1')).toBe(judgeAddress('10.0.0.1'));
    expect(judgeAddress('64:ff9b::7f00:1')).toBe(`NAT64 of ${judgeAddress('127.0.0.1') ?? ''}`);
    expect(judgeAddress('2002:c0a8:0101::1')).toBe(`6to4 of ${judgeAddress('192.168.1.1') ?? ''}`);
    expect(judgeAddress('10.0.0.1')).toBe('private use');
    expect(judgeAddress('127.0.0.1')).toBe('loopback');
    expect(judgeAddress('::ffff:93.184.216.34')).toBeUndefined();
    expect(judgeAddress('2606:4700::6810:85e5')).toBeUndefined();
  });
});
