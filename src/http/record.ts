// What a report keeps of a message: redacted, and cut so one hostile body cannot swell results.json.

import type { Redactor } from '../config/redact.js';
import type { RecordedExchange, RecordedMessage } from './recorded-exchange.js';

/** Recorded bodies are cut at this many characters. */
const RECORDED_BODY_LIMIT = 64 * 1024;

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
    let end = RECORDED_BODY_LIMIT;
    // Never split a surrogate pair.
    const last = text.charCodeAt(end - 1);
    if (last >= 0xd800 && last <= 0xdbff) end--;
    text = text.slice(0, end);
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
  exchange.curl = redactor.text(exchange.curl);
}
