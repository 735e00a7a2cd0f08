// What a report keeps of a message: redacted, and cut so one hostile body cannot swell results.json.

import { createHash } from 'node:crypto';
import type { Redactor } from '../config/redact.js';
import { RECORDED_BODY_LIMIT } from './evidence-limits.js';
import type { RecordedExchange, RecordedMessage } from './recorded-exchange.js';

/** The SHA-256 of text as UTF-8, hex: what identifies a body whose record is cut. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * The first `max` characters of text (one fewer where the cut would split a surrogate pair), as a
 * copy that shares no memory with text: V8 keeps a slice as a view of its whole parent, so a 64 KiB
 * record of a 6 MB body would hold all 6 MB for as long as the report lives.
 */
export function detachedHead(text: string, max: number): string {
  let end = Math.min(max, text.length);
  const last = text.charCodeAt(end - 1);
  if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
  return Buffer.from(text.slice(0, end), 'utf8').toString('utf8');
}

function redactHeaders(headers: Record<string, string>, redactor: Redactor): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[redactor.text(name)] = redactor.text(value);
  return out;
}

/**
 * Redacts before cutting: a cut made first could leave the head of a secret at the edge, where
 * no pattern would recognise it any more.
 */
export function recordMessage(
  headers: Record<string, string>,
  body: string | undefined,
  bodyBytes: number | undefined,
  redactor: Redactor,
): RecordedMessage {
  const message: RecordedMessage = { headers: redactHeaders(headers, redactor) };
  if (body === undefined) return message;
  let text = redactor.text(body);
  if (text.length > RECORDED_BODY_LIMIT) {
    // The hash of the redacted text: a hash of the text as read would let a reader test guesses of a secret.
    message.bodySha256 = sha256Hex(text);
    text = detachedHead(text, RECORDED_BODY_LIMIT);
    message.bodyTruncated = true;
  }
  message.body = text;
  if (bodyBytes !== undefined) message.bodyBytes = bodyBytes;
  return message;
}

/**
 * Redacts a record again, in place, after a secret was learned: the redemption that returns an
 * org token is recorded before anyone can tell the redactor about that token.
 */
export function reRedactExchange(exchange: RecordedExchange, redactor: Redactor): void {
  exchange.request.url = redactor.text(exchange.request.url);
  exchange.request.headers = redactHeaders(exchange.request.headers, redactor);
  if (exchange.request.body !== undefined) exchange.request.body = redactor.text(exchange.request.body);
  if (exchange.response) {
    exchange.response.headers = redactHeaders(exchange.response.headers, redactor);
    if (exchange.response.body !== undefined) exchange.response.body = redactor.text(exchange.response.body);
  }
  if (exchange.transportError) exchange.transportError.message = redactor.text(exchange.transportError.message);
  if (exchange.label !== undefined) exchange.label = redactor.text(exchange.label);
  if (exchange.curl !== undefined) exchange.curl = redactor.text(exchange.curl);
}
