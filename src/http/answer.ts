// What a check is handed: the body read as text and as lossless JSON, the first invalid UTF-8 byte,
// and the invariant "transportError ⇔ status 0" (a half-read body is no answer to judge). A large
// body (LAZY_JSON_ABOVE_CHARS) is kept in a file (src/http/spilled-text.ts) and read, and parsed, when
// a check first reads its text or JSON, not when it arrives.

import { parseJsonCompact } from '../json/compact.js';
import { parseJsonDeep, TOO_DEEP_TO_JUDGE } from '../json/deep-parse.js';
import { parseJsonLossless } from '../json/lossless.js';
import type { JsonValue } from '../json/lossless.js';
import { LAZY_JSON_ABOVE_CHARS } from './evidence-limits.js';
import type { Exchanged, Incoming } from './exchange.js';
import type { RecordedExchange } from './recorded-exchange.js';
import type { ApiResponse } from './types.js';
import { releaseMemory } from './memory-valve.js';
import { RecentlyRead } from './recently-read.js';
import { spillText } from './spilled-text.js';
import { invalidUtf8Offset } from './utf8.js';

export interface ReadBody {
  text: string;
  json: JsonValue | undefined;
  jsonError?: string;
  invalidUtf8At?: number;
  /** Longer than LAZY_JSON_ABOVE_CHARS: `text`, `json` and `jsonError` are getters reading it on demand. */
  large?: true;
}

type Parsed = { json: JsonValue | undefined; jsonError?: string };

function parsed(text: string, parse = parseJsonLossless): Parsed {
  if (text.trim() === '') return { json: undefined, jsonError: 'empty body' };
  try {
    return { json: parse(text) };
  } catch (err) {
    // The recursive parsers run out of stack some 5,000 levels down: a deep text is parsed again
    // with a stack of its own (judged as JSON), or said to be too deep to judge, never "not JSON".
    if (err instanceof RangeError) return parsedDeep(text);
    return { json: undefined, jsonError: jsonErrorCause(text, err instanceof Error ? err.message : String(err)) };
  }
}

function parsedDeep(text: string): Parsed {
  try {
    return { json: parseJsonDeep(text) };
  } catch (err) {
    return { json: undefined, jsonError: jsonErrorCause(text, err instanceof Error ? err.message : String(err)) };
  }
}

/**
 * " with a body that is not JSON (cause)", or, for a body nested past what the certifier parses,
 * " with a body too deep to judge: …": it may well be JSON, and no report says it is not.
 */
export function unparsedBodyPhrase(jsonError: string): string {
  return jsonError.startsWith(TOO_DEEP_TO_JUDGE)
    ? ` with a body ${jsonError}`
    : ` with a body that is not JSON (${jsonError})`;
}

/**
 * Why a body is not JSON, in words an operator acts on: a defect of an API that answers JSON
 * otherwise (a byte-order mark, a cut body) is named as such, not only as the parser's complaint.
 */
function jsonErrorCause(text: string, parserMessage: string): string {
  if (parserMessage.startsWith(TOO_DEEP_TO_JUDGE)) return parserMessage;
  if (text.startsWith('\uFEFF'))
    return 'the body starts with EF BB BF, a byte-order mark: JSON text must not begin with one (RFC 8259 §8.1), and a JSON parser refuses it';
  const trimmed = text.trimEnd();
  const opened = trimmed.startsWith('{') || trimmed.startsWith('[');
  if (opened && !trimmed.endsWith('}') && !trimmed.endsWith(']'))
    return `the body ends before its JSON text does (cut short after ${Buffer.byteLength(text, 'utf8')} bytes?): ${parserMessage}`;
  return parserMessage;
}

const parsedAnswers = new RecentlyRead<Parsed>();

/**
 * `json` and `jsonError` of a large text as getters. The parsed value is kept while it is among the
 * last few read (src/http/recently-read.ts), so checks judging the same answer in turn parse it once,
 * and parsed again when read after that. Repeated small items are shared (src/json/compact.ts).
 */
function lazilyParsed<T extends object>(target: T, text: () => string): T & Parsed {
  const read = (): Parsed =>
    parsedAnswers.get(target, () => {
      // What earlier parses left behind is freed first: their arrays are large objects, which only
      // a full collection frees, and V8 postpones that until the heap nears its limit (4 GB here).
      releaseMemory();
      return parsed(text(), parseJsonCompact);
    });
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
  if (text.length > LAZY_JSON_ABOVE_CHARS) {
    const spilled = spillText(incoming.bytes, text);
    const body = Object.defineProperty({ large: true as const, ...utf8 }, 'text', {
      get: () => spilled.read(),
      enumerable: true,
    }) as { large: true; text: string; invalidUtf8At?: number };
    return lazilyParsed(body, () => spilled.read());
  }
  const { json, jsonError: parseError } = parsed(text);
  const jsonError =
    parseError !== undefined && invalidUtf8At !== undefined
      ? `the body holds bytes that are not UTF-8 (the first at byte offset ${invalidUtf8At}): ${parseError}`
      : parseError;
  return { text, json, ...(jsonError !== undefined ? { jsonError } : {}), ...utf8 };
}

/**
 * True when the body may name an org token (src/http/token-discovery.ts), so that it must be parsed
 * at once to learn it: always for a small body; for a large one only when the member name, or a
 * `\u` escape that could spell it, is in its text.
 */
export function mayCarryOrgToken(body: ReadBody): boolean {
  return body.large !== true || body.text.includes('org_token') || body.text.includes('\\u');
}

export function apiResponse({ incoming, error }: Exchanged, body: ReadBody, exchange: RecordedExchange): ApiResponse {
  const base = {
    status: error ? 0 : (incoming?.status ?? 0),
    headers: incoming?.headers ?? {},
    ...(body.invalidUtf8At !== undefined ? { invalidUtf8At: body.invalidUtf8At } : {}),
    ...(error ? { transportError: error } : {}),
    exchange,
  };
  if (body.large) {
    // Handed on as getters, still in its file and unparsed.
    return Object.defineProperties(
      { ...base, large: true },
      {
        text: { get: () => body.text, enumerable: true },
        json: { get: () => body.json, enumerable: true },
        jsonError: { get: () => body.jsonError, enumerable: true },
      },
    ) as ApiResponse;
  }
  return {
    ...base,
    text: body.text,
    json: body.json,
    ...(body.jsonError !== undefined ? { jsonError: body.jsonError } : {}),
  };
}
