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
    const v4 = parseIPv4(dotted[1]!);
    if (!v4) return null;
    s = `${s.slice(0, dotted.index)}${((v4[0]! << 8) | v4[1]!).toString(16)}:${((v4[2]! << 8) | v4[3]!).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string) => (part === '' ? [] : part.split(':'));
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  const out = new Uint8Array(16);
  for (let i = 0; i < 8; i++) {
    const g = groups[i]!;
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
  const [addr, bits] = text.split('/');
  const bytes = parseIPv4(addr!) ?? parseIPv6(addr!);
  if (!bytes || bits === undefined) throw new Error(`bad CIDR ${text}`);
  return { bytes, bits: Number(bits), label };
}

export function inCidr(address: Uint8Array, cidr: Cidr): boolean {
  if (address.length !== cidr.bytes.length) return false;
  for (let bit = 0; bit < cidr.bits; bit++) {
    const byte = bit >> 3;
    const mask = 0x80 >> (bit & 7);
    if ((address[byte]! & mask) !== (cidr.bytes[byte]! & mask)) return false;
  }
  return true;
}
