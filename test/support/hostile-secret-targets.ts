// Hostile targets of the secrets rows of the hostile matrix: plain HTTP/1.1 servers on 127.0.0.1 that
// answer every request 404 with a JSON envelope carrying what the row is about: one org token of
// 10,000 characters, 2,000 distinct org tokens, the partner key and the org token echoed in every
// form a stack may produce, a value nested 4,500 levels, terminal control sequences.

import { createServer, type IncomingMessage } from 'node:http';
import { listening, type LoopbackServer } from './loopback-server.js';
import { DISGUISES } from './secret-disguises.js';

export const HOSTILE_KEY = `spk_live_${'5a4b3c2d1e0f9a8b'.repeat(3)}`;
export const HOSTILE_TOKEN = `sot_${'c0ffee11d00d2244'.repeat(3)}`;

export type SecretHostility =
  'long-token' | 'many-tokens' | 'echo-forms' | 'echo-disguises' | 'deep' | 'control-chars' | 'bidi';

/** Two disguises one over the other, as the issue found them and as a stack or an attacker composes them. */
const COMPOSED: Array<[string, string]> = [
  ['percent-encoded', 'percent-encoded'],
  ['interleaved with U+200B', 'base64'],
  ['reversed', 'base64'],
  ['base64', 'reversed'],
  ['rot13', 'base32'],
  ['base32', 'rot13'],
  ['fullwidth', 'percent-encoded'],
  ['hex', 'interleaved with U+2060 and U+00AD'],
  ['spaced out', 'HTML references'],
  ['base64', 'hex'],
];

/** The secret under every disguise of secret-disguises.ts, and the compositions above. */
function disguisesOf(secret: string): string[] {
  const apply = (name: string, s: string): string => DISGUISES[name]?.(s) ?? s;
  return [
    ...Object.keys(DISGUISES).map((name) => apply(name, secret)),
    ...COMPOSED.map(([first, second]) => apply(second, apply(first, secret))),
  ];
}

/** Bidirectional controls in an error and message: U+202E reverses what follows on screen. */
const BIDI_TEXT = 'passed \u202e)deliaf(\u202c \u2066x\u2069 \u200f \u061c';

/** Terminal sequences a target may write: OSC 52 (clipboard write), OSC 8 (link), CSI clear, NUL, C1 CSI. */
export const CONTROL_TEXT =
  'x\u001b]52;c;ZWNobyBvd25lZA==\u0007 \u001b]8;;https://e.vil\u0007click\u001b]8;;\u0007 \u0000 \u009b31m \u001b[2J y';

function wrap(s: string, every: number): string {
  return (s.match(new RegExp(`.{1,${every}}`, 'g')) ?? []).join('\n');
}

/** Every form of `secret` the redactor must know, in one sentence. */
function secretForms(secret: string): string[] {
  const part = secret.replace(/^(spk_live_|sot_)/, '');
  const b64 = Buffer.from(secret).toString('base64');
  return [
    part,
    part.toUpperCase(),
    secret.replace(/_/g, '-'),
    secret.replace(/_/g, '\\x5f'),
    `${secret.slice(0, 20)}\n${secret.slice(20)}`,
    wrap(b64, 16),
    wrap(b64, 19),
    Buffer.from(secret).toString('base64url'),
    Buffer.from(secret, 'utf16le').toString('base64'),
    Buffer.from(secret, 'utf16le').swap16().toString('base64'),
    // Pieces from the middle of the secret part: 16 characters, and 20.
    part.slice(8, 24),
    part.slice(21, 41),
    Buffer.from(secret).toString('hex'),
    [...secret].map((c) => `&#${c.charCodeAt(0)};`).join(''),
    [...secret].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join(''),
    [...secret].map((c) => `%${c.charCodeAt(0).toString(16)}`).join(''),
    [...secret].map((c) => `\\u00${c.charCodeAt(0).toString(16)}`).join(''),
  ];
}

function header(req: IncomingMessage, name: string, fallback: string): string {
  const v = req.headers[name];
  return typeof v === 'string' && v.length > 0 ? v : fallback;
}

/** The key and token the request carried (else ours), each in every form `formsOf` gives, in the message. */
function echoed(req: IncomingMessage, formsOf: (secret: string) => string[]): string {
  const key = header(req, 'x-partner-key', HOSTILE_KEY);
  const token = header(req, 'x-svc-org', HOSTILE_TOKEN);
  const forms = [...formsOf(key), ...formsOf(token)];
  return JSON.stringify({ error: 'not_found', message: `key ${forms.join(' / ')} is not known` });
}

/** An error envelope whose error, message and data are each a valid array nested `depth` levels. */
export function deepErrorBody(depth: number): string {
  const deep = `${'['.repeat(depth)}"core"${']'.repeat(depth)}`;
  return `{"error":${deep},"message":${deep},"data":{"items":${deep}}}`;
}

function answerOf(kind: SecretHostility, req: IncomingMessage): string {
  switch (kind) {
    case 'long-token':
      return JSON.stringify({ error: 'not_found', message: 'nothing here', org_token: 'a'.repeat(10_000) });
    case 'many-tokens':
      return JSON.stringify({
        error: 'not_found',
        message: 'nothing here',
        items: Array.from({ length: 2000 }, (_, i) => ({ org_token: `t${i.toString(16).padStart(7, '0')}` })),
      });
    case 'echo-forms':
      return echoed(req, secretForms);
    case 'echo-disguises':
      return echoed(req, disguisesOf);
    case 'bidi':
      return JSON.stringify({ error: `not_found ${BIDI_TEXT}`, message: `nothing here ${BIDI_TEXT}` });
    case 'deep':
      return deepErrorBody(4500);
    case 'control-chars':
      return JSON.stringify({ error: `not_found ${CONTROL_TEXT}`, message: `nothing here ${CONTROL_TEXT}` });
  }
}

/** A target answering every request 404 with the JSON text `answer` gives for it. */
export function startAnswering404(answer: (req: IncomingMessage) => string): Promise<LoopbackServer> {
  return listening(
    createServer((req, res) => {
      req.resume();
      const body = answer(req);
      res.writeHead(404, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
      });
      res.end(body);
    }),
  );
}

export function startSecretTarget(kind: SecretHostility): Promise<LoopbackServer> {
  return startAnswering404((req) => answerOf(kind, req));
}
