// What a check is handed: the body read as text and as lossless JSON, the first invalid UTF-8 byte,
// and the invariant "transportError ⇔ status 0" (a half-read body is no answer to judge).

import { parseJsonLossless } from '../json/lossless.js';
import type { JsonValue } from '../json/lossless.js';
import type { Exchanged, Incoming } from './exchange.js';
import type { RecordedExchange } from './recorded-exchange.js';
import type { ApiResponse } from './types.js';
import { invalidUtf8Offset } from './utf8.js';

export interface ReadBody {
  text: string;
  json: JsonValue | undefined;
  jsonError?: string;
  invalidUtf8At?: number;
}

export function readBody(incoming: Incoming | undefined): ReadBody {
  if (!incoming) return { text: '', json: undefined, jsonError: 'no response' };
  const text = incoming.bytes.toString('utf8');
  // toString() turns invalid bytes into U+FFFD silently; the offset keeps the evidence.
  const invalidUtf8At = invalidUtf8Offset(incoming.bytes, incoming.received > incoming.bytes.length);
  const utf8 = invalidUtf8At !== undefined ? { invalidUtf8At } : {};
  if (text.trim() === '') return { text, json: undefined, jsonError: 'empty body', ...utf8 };
  try {
    return { text, json: parseJsonLossless(text), ...utf8 };
  } catch (err) {
    return { text, json: undefined, jsonError: err instanceof Error ? err.message : String(err), ...utf8 };
  }
}

export function apiResponse({ incoming, error }: Exchanged, body: ReadBody, exchange: RecordedExchange): ApiResponse {
  return {
    status: error ? 0 : (incoming?.status ?? 0),
    headers: incoming?.headers ?? {},
    text: body.text,
    json: body.json,
    ...(body.jsonError !== undefined ? { jsonError: body.jsonError } : {}),
    ...(body.invalidUtf8At !== undefined ? { invalidUtf8At: body.invalidUtf8At } : {}),
    ...(error ? { transportError: error } : {}),
    exchange,
  };
}
