import { inCidr, parseCidr, parseIPv4, parseIPv6, type Cidr } from './ip-address.js';

/** Rows of [CIDR, label], parsed once at start-up. */
function cidrs(rows: ReadonlyArray<readonly [string, string]>): Cidr[] {
  return rows.map(([c, l]) => parseCidr(c, l));
}

// IANA special-purpose registries (IPv4 and IPv6), RFC 5771 and RFC 4291. Ranges that embed an IPv4
// address (IPv4-mapped, NAT64, 6to4, IPv4-compatible) are refused whole rather than judged by the
// embedded address: no public webhook needs them.
const IPV4_BLOCKED: readonly Cidr[] = cidrs([
  ['0.0.0.0/8', 'this network'],
  ['10.0.0.0/8', 'private use'],
  ['100.64.0.0/10', 'carrier-grade NAT'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link local'],
  ['172.16.0.0/12', 'private use'],
  ['192.0.0.0/24', 'IETF protocol assignments'],
  ['192.0.2.0/24', 'documentation'],
  ['192.88.99.0/24', '6to4 relay anycast'],
  ['192.168.0.0/16', 'private use'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'],
  ['255.255.255.255/32', 'broadcast'],
]);

const IPV6_BLOCKED: readonly Cidr[] = cidrs([
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['::/96', 'IPv4-compatible'],
  ['::ffff:0:0/96', 'IPv4-mapped'],
  ['64:ff9b::/96', 'NAT64'],
  ['64:ff9b:1::/48', 'local-use NAT64'],
  ['100::/64', 'discard-only'],
  ['2001::/23', 'IETF protocol assignments'],
  ['2001:db8::/32', 'documentation'],
  ['2002::/16', '6to4'],
  ['3fff::/20', 'documentation'],
  ['5f00::/16', 'segment routing'],
  ['fc00::/7', 'unique local'],
  ['fe80::/10', 'link local'],
  ['fec0::/10', 'site local'],
  ['ff00::/8', 'multicast'],
]);

const LOOPBACK_V4 = parseCidr('127.0.0.0/8', 'loopback');
const LOOPBACK_V6 = parseCidr('::1/128', 'loopback');

export type UrlVerdict = { ok: true } | { ok: false; reason: string };

function isLoopbackHost(host: string): boolean {
  if (host === 'localhost') return true;
  const v4 = parseIPv4(host);
  if (v4) return inCidr(v4, LOOPBACK_V4);
  const v6 = parseIPv6(host);
  return v6 !== null && inCidr(v6, LOOPBACK_V6);
}

/**
 * Whether the queue may deliver to `url` (spec: Events, delivery rule 3). The host is judged after the
 * WHATWG URL parser has normalized it, so `https://2130706433/`, `0177.0.0.1` and `0x7f.1` are seen as
 * 127.0.0.1. Host names are judged by their text; they are not resolved. `allowLoopback` is the operator's
 * local-testing switch: `http://` or `https://` on 127.0.0.0/8, ::1 or localhost.
 */
export function checkWebhookUrl(url: string, opts: { allowLoopback: boolean }): UrlVerdict {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'not a valid URL' };
  }
  let host = parsed.hostname.toLowerCase();
  if (host.endsWith('.') && !host.endsWith('..')) host = host.slice(0, -1);
  if (host === '') return { ok: false, reason: 'no host' };

  if (opts.allowLoopback && isLoopbackHost(host) && (parsed.protocol === 'http:' || parsed.protocol === 'https:'))
    return { ok: true };
  if (parsed.protocol !== 'https:')
    return { ok: false, reason: `scheme ${parsed.protocol.replace(/:$/, '')} is not https` };

  if (host === 'localhost' || host.endsWith('.localhost'))
    return { ok: false, reason: 'localhost is not a public host' };
  if (host === 'internal' || host.endsWith('.internal'))
    return { ok: false, reason: '*.internal is not a public host' };

  const v4 = parseIPv4(host);
  if (v4) {
    const hit = IPV4_BLOCKED.find((c) => inCidr(v4, c));
    return hit ? { ok: false, reason: `IPv4 address in a ${hit.label} range` } : { ok: true };
  }
  const v6 = parseIPv6(host);
  if (v6) {
    const hit = IPV6_BLOCKED.find((c) => inCidr(v6, c));
    return hit ? { ok: false, reason: `IPv6 address in a ${hit.label} range` } : { ok: true };
  }
  return { ok: true };
}
