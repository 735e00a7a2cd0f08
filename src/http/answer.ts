// What a check is handed: the body read as text and as lossless JSON, the first invalid UTF-8 byte,
// and the invariant "transportError ⇔ status 0" (a half-read body is no answer to judge). A large
// body (LAZY_JSON_ABOVE_CHARS) is parsed when its JSON is first read, not when it arrives.

import { parseJsonCompact } from '../json/compact.js';
import { parseJsonLossless } from '../json/lossless.js';
import type { JsonValue } from '../json/lossless.js';
import { LAZY_JSON_ABOVE_CHARS } from './evidence-limits.js';
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

type Parsed = { json: JsonValue | undefined; jsonError?: string };

function parsed(text: string, parse = parseJsonLossless): Parsed {
  if (text.trim() === '') return { json: undefined, jsonError: 'empty body' };
  try {
    return { json: parse(text) };
  } catch (err) {
    return { json: undefined, jsonError: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * `json` and `jsonError` of a large text as getters. The parsed value is held weakly: a check that
 * reads it several times while it judges parses once, and once no check holds it, it is freed
 * (a WeakRef lives at least to the end of the current job). Repeated small items are shared
 * (src/json/compact.ts). A scalar or an error is small and kept.
 */
function lazilyParsed<T extends object>(target: T, text: string): T & Parsed {
  let weak: WeakRef<object> | undefined;
  let kept: Parsed | undefined;
  const read = (): Parsed => {
    const known = weak?.deref();
    if (known !== undefined) return { json: known as JsonValue };
    if (kept) return kept;
    const result = parsed(text, parseJsonCompact);
    const json = result.json;
    if (typeof json === 'object' && json !== null) {
      weak = new WeakRef(json);
      return { json };
    }
    kept = result;
    return result;
  };
  return Object.defineProperties(target, {
    json: { get: () => read().json, enumerable: true },
    jsonError: { get: () => read().jsonError, enumerable: true },
  }) as T & Parsed;
}

export function readBody(incoming: Incoming | undefined): ReadBody {
  if (!incoming) return { text: '', json: undefined, jsonError: 'no response' };
  const text = incoming.bytes.toString('utf8');
  // toString() turns invalid bytes into U+FFFD silently; the offset keeps the evidence.
  const invalidUtf8At = invalidUtf8Offset(incoming.bytes, incoming.received > incoming.bytes.length);
  const utf8 = invalidUtf8At !== undefined ? { invalidUtf8At } : {};
  if (text.length > LAZY_JSON_ABOVE_CHARS) return lazilyParsed({ text, ...utf8 }, text);
  const { json, jsonError } = parsed(text);
  return { text, json, ...(jsonError !== undefined ? { jsonError } : {}), ...utf8 };
}

/**
 * True when the body may name an org token (src/http/token-discovery.ts), so that it must be parsed
 * at once to learn it: always for a small body; for a large one only when the member name, or a
 * `\u` escape that could spell it, is in its text.
 */
export function mayCarryOrgToken(body: ReadBody): boolean {
  return body.text.length <= LAZY_JSON_ABOVE_CHARS || body.text.includes('org_token') || body.text.includes('\\u');
}

export function apiResponse({ incoming, error }: Exchanged, body: ReadBody, exchange: RecordedExchange): ApiResponse {
  const base = {
    status: error ? 0 : (incoming?.status ?? 0),
    headers: incoming?.headers ?? {},
    text: body.text,
    ...(body.invalidUtf8At !== undefined ? { invalidUtf8At: body.invalidUtf8At } : {}),
    ...(error ? { transportError: error } : {}),
    exchange,
  };
  if (body.text.length > LAZY_JSON_ABOVE_CHARS) {
    // Handed on as getters, still unparsed.
    return Object.defineProperties(base, {
      json: { get: () => body.json, enumerable: true },
      jsonError: { get: () => body.jsonError, enumerable: true },
    }) as ApiResponse;
  }
  return { ...base, json: body.json, ...(body.jsonError !== undefined ? { jsonError: body.jsonError } : {}) };
}
