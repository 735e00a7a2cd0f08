// Events, delivery rule 3, on the certifier's side (the sandbox has its own, independent copy):
// "The URL must be `https://` on a public host. The service does not send to `localhost`,
// `*.localhost`, `*.internal`, or an IP address in a private, loopback, link-local, carrier-grade
// NAT, multicast or reserved range (IPv4 or IPv6)." Ranges from the IANA special-purpose registries.

import { isIP } from 'node:net';

export type UrlVerdict = { ok: true; host: string } | { ok: false; reason: string };

type Range4 = [number, number, string]; // network (as uint32), prefix length, why
const V4: Range4[] = (
  [
    ['0.0.0.0', 8, 'this network'],
    ['10.0.0.0', 8, 'private use'],
    ['100.64.0.0', 10, 'carrier-grade NAT'],
    ['127.0.0.0', 8, 'loopback'],
    ['169.254.0.0', 16, 'link local'],
    ['172.16.0.0', 12, 'private use'],
    ['192.0.0.0', 24, 'IETF protocol assignments'],
    ['192.0.2.0', 24, 'documentation'],
    ['192.88.99.0', 24, '6to4 relay anycast'],
    ['192.168.0.0', 16, 'private use'],
    ['198.18.0.0', 15, 'benchmarking'],
    ['198.51.100.0', 24, 'documentation'],
    ['203.0.113.0', 24, 'documentation'],
    ['224.0.0.0', 4, 'multicast'],
    ['240.0.0.0', 4, 'reserved'],
    ['255.255.255.255', 32, 'broadcast'],
  ] as const
).map(([net, len, why]) => [v4ToInt(net), len, why]);

type Range6 = [bigint, number, string];
const V6: Range6[] = (
  [
    ['::', 128, 'unspecified'],
    ['::1', 128, 'loopback'],
    ['64:ff9b:1::', 48, 'local-use IPv4/IPv6 translation'],
    ['100::', 64, 'discard-only'],
    ['2001::', 23, 'IETF protocol assignments'],
    ['2001:db8::', 32, 'documentation'],
    ['3fff::', 20, 'documentation'],
    ['5f00::', 16, 'segment routing'],
    ['fc00::', 7, 'unique local'],
    ['fe80::', 10, 'link local'],
    ['fec0::', 10, 'site local'],
    ['ff00::', 8, 'multicast'],
  ] as const
).map(([net, len, why]) => [v6ToBig(net), len, why]);

function v4ToInt(ip: string): number {
  return ip.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
}

function v6ToBig(ip: string): bigint {
  let text = ip;
  // An embedded dotted IPv4 tail (::ffff:1.2.3.4) becomes two hex groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const n = v4ToInt(dotted[0]);
    text = `${text.slice(0, dotted.index)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  return groups.reduce((acc, g) => (acc << 16n) + BigInt(parseInt(g || '0', 16)), 0n);
}

function inV4(n: number): string | undefined {
  for (const [net, len, why] of V4) {
    const mask = len === 0 ? 0 : (0xffffffff << (32 - len)) >>> 0;
    if ((n & mask) >>> 0 === (net & mask) >>> 0) return why;
  }
  return undefined;
}

function inV6(n: bigint): string | undefined {
  // Forms that embed an IPv4 address are judged by that address.
  const top96 = n >> 32n;
  const low32 = Number(n & 0xffffffffn);
  if (top96 === 0xffffn) return inV4(low32) ?? undefined; // ::ffff:a.b.c.d
  if (top96 === 0n && n > 1n) return 'IPv4-compatible address (deprecated)';
  if (n >> 32n === 0x64ff9b0000000000000000n) return inV4(low32) ? `NAT64 of ${inV4(low32)}` : undefined;
  if (n >> 112n === 0x2002n) {
    const v4 = Number((n >> 80n) & 0xffffffffn);
    if (inV4(v4)) return `6to4 of ${inV4(v4)}`;
  }
  for (const [net, len, why] of V6) {
    const shift = BigInt(128 - len);
    if (n >> shift === net >> shift) return why;
  }
  return undefined;
}

/** Whether the service would deliver to `raw` (judged after WHATWG URL parsing, as a browser or the service would). */
export function judgeWebhookUrl(raw: string): UrlVerdict {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: `not a valid URL: ${raw}` };
  }
  if (url.protocol !== 'https:')
    return { ok: false, reason: `the URL is ${url.protocol}//, the service only delivers to https://` };
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return { ok: false, reason: `${host} is localhost` };
  if (host.endsWith('.internal') || host === 'internal') return { ok: false, reason: `${host} is an *.internal name` };
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  const family = isIP(bare);
  if (family === 4) {
    const why = inV4(v4ToInt(bare));
    if (why) return { ok: false, reason: `${bare} is in a ${why} range` };
  } else if (family === 6) {
    const why = inV6(v6ToBig(bare));
    if (why) return { ok: false, reason: `${bare} is in a ${why} range` };
  } else if (!host.includes('.')) {
    return { ok: false, reason: `${host} is not a public host name (no domain)` };
  }
  return { ok: true, host: bare };
}

/** The same rule for an address a host name resolved to. */
export function judgeAddress(address: string): string | undefined {
  const family = isIP(address);
  if (family === 4) return inV4(v4ToInt(address));
  if (family === 6) return inV6(v6ToBig(address));
  return undefined;
}
