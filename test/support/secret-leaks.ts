// Whether an output holds a secret in any form, read independently of the redactor (regular
// expressions of this file, not its automaton): the text decoded of percent, \u, \x and HTML
// character references, line breaks (and JSON's escaped ones) dropped, `-` read as `_`, lower-cased;
// then searched for 16-character windows of the secret part (the 48 hex digits after the prefix), of
// the hex of its bytes and of its base64 (standard and URL-safe, UTF-8, UTF-16LE and UTF-16BE, three
// alignments).
// The redactor's preview shows at most 12 characters of a secret, 3 of its secret part.
// Then read again through every disguise of secret-disguises.ts and two of them one over the other
// (invisible characters, spaces, fullwidth, escapes, reversed, rot13, base64, base32, hex).

import { disguisedLeaks } from './secret-disguises.js';

const PREFIXES = ['spk_live_', 'sot_'];
const WINDOW = 16;

function secretPart(secret: string): string {
  const prefix = PREFIXES.find((p) => secret.startsWith(p));
  return prefix ? secret.slice(prefix.length) : secret;
}

function decoded(text: string): string {
  return text
    .replace(/\\[nr]|[\r\n]/g, '')
    .replace(/\\u([0-9a-f]{4})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/\\x([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/&#x([0-9a-f]{1,6});?/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/&#([0-9]{1,7});?/g, (_, d: string) => String.fromCharCode(parseInt(d, 10)))
    .replace(/&lowbar;/g, '_')
    .replace(/-/g, '_')
    .toLowerCase();
}

function windows(s: string): string[] {
  const out: string[] = [];
  for (let at = 0; at + WINDOW <= s.length; at += 4) out.push(s.slice(at, at + WINDOW));
  return out;
}

function base64Cores(bytes: Buffer): string[] {
  const cores: string[] = [];
  for (let pad = 0; pad < 3; pad++) {
    const encoded = Buffer.concat([Buffer.alloc(pad), bytes]).toString('base64');
    const core = encoded.slice(Math.ceil((pad * 8) / 6), Math.floor(((pad + bytes.length) * 8) / 6));
    cores.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return cores;
}

/** The forms of `secrets` found in `text`, named; empty when none. */
function leakedForms(text: string, secrets: readonly string[]): string[] {
  const plain = decoded(text);
  const unwrapped = text.replace(/\\[nr]|[\r\n]/g, '');
  const found: string[] = [];
  for (const secret of secrets) {
    const part = secretPart(secret).toLowerCase().replace(/-/g, '_');
    const name = `${secret.slice(0, 12)}…`;
    if (windows(part).some((w) => plain.includes(w))) found.push(`${name} as text`);
    const hex = Buffer.from(secretPart(secret)).toString('hex');
    if (windows(hex).some((w) => plain.includes(w))) found.push(`${name} as hex`);
    const utf16le = Buffer.from(secretPart(secret), 'utf16le');
    for (const bytes of [Buffer.from(secretPart(secret)), utf16le, Buffer.from(utf16le).swap16()]) {
      if (base64Cores(bytes).some((core) => windows(core).some((w) => unwrapped.includes(w)))) {
        found.push(`${name} as base64`);
        break;
      }
    }
    const disguised = disguisedLeaks(text, secret, 4);
    if (disguised.length > 0) found.push(`${name} disguised (${disguised[0]})`);
  }
  return found;
}

/** A problem naming each output and form that leaks, or undefined. */
export function leaksIn(
  outputs: ReadonlyArray<{ name: string; text: string }>,
  secrets: readonly string[],
): string | undefined {
  const leaks = outputs.flatMap((o) => leakedForms(o.text, secrets).map((form) => `${o.name}: ${form}`));
  return leaks.length > 0 ? `secret leaked: ${leaks.slice(0, 8).join('; ')}` : undefined;
}
