/** Address parsing for the webhook URL policy. Input is a host as the WHATWG URL parser leaves it (already canonical). */

export function parseIPv4(text: string): Uint8Array | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!m) return null;
  const bytes = m.slice(1).map(Number);
  return bytes.every((b) => b <= 255) ? Uint8Array.from(bytes) : null;
}

export function parseIPv6(text: string): Uint8Array | null {
  let s = text;
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  if (!s.includes(':')) return null;
  // A trailing dotted IPv4 becomes two hextets.
  const dotted = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(s);
  if (dotted) {
    const v4 = parseIPv4(dotted[0]);
    if (!v4) return null;
    const [a = 0, b = 0, c = 0, d = 0] = v4;
    s = `${s.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [before = '', after, ...more] = s.split('::');
  if (more.length > 0) return null;
  const parse = (part: string) => (part === '' ? [] : part.split(':'));
  const head = parse(before);
  const tail = after === undefined ? [] : parse(after);
  const missing = 8 - head.length - tail.length;
  if (after === undefined ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(after === undefined ? 0 : missing).fill('0'), ...tail];
  const out = new Uint8Array(16);
  for (const [i, g] of groups.entries()) {
    if (!/^[0-9a-f]{1,4}$/i.test(g)) return null;
    const v = parseInt(g, 16);
    out[i * 2] = v >> 8;
    out[i * 2 + 1] = v & 0xff;
  }
  return out;
}

export interface Cidr {
  bytes: Uint8Array;
  bits: number;
  label: string;
}

export function parseCidr(text: string, label: string): Cidr {
  const [addr = '', bits] = text.split('/');
  const bytes = parseIPv4(addr) ?? parseIPv6(addr);
  if (!bytes || bits === undefined) throw new Error(`bad CIDR ${text}`);
  return { bytes, bits: Number(bits), label };
}

export function inCidr(address: Uint8Array, cidr: Cidr): boolean {
  if (address.length !== cidr.bytes.length) return false;
  for (let bit = 0; bit < cidr.bits; bit++) {
    const byte = bit >> 3;
    const mask = 0x80 >> (bit & 7);
    if (((address[byte] ?? 0) & mask) !== ((cidr.bytes[byte] ?? 0) & mask)) return false;
  }
  return true;
}
