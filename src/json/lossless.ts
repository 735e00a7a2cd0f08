import { parse, stringify } from 'lossless-json';

/**
 * A JSON number token written with a fraction or an exponent (`1.0`, `9.9e11`).
 * The v1 spec has no non-integer numbers, so such a token is kept apart from an
 * integer: a check can then tell `990000000001` from `990000000001.0` or `9.90000000001e11`.
 */
export class JsonDecimal {
  constructor(readonly raw: string) {}
  get value(): number {
    return Number(this.raw);
  }
  toJSON(): string {
    return this.raw;
  }
}

/**
 * A parsed JSON value with no precision lost: integer tokens become `number` when
 * they are safe integers and `bigint` otherwise; other number tokens become `JsonDecimal`.
 */
export type JsonValue =
  null | boolean | string | number | bigint | JsonDecimal | JsonValue[] | { [key: string]: JsonValue };

export type JsonObject = { [key: string]: JsonValue };

const INTEGER_TOKEN = /^-?(0|[1-9][0-9]*)$/;

export function parseNumberToken(token: string): number | bigint | JsonDecimal {
  if (!INTEGER_TOKEN.test(token)) return new JsonDecimal(token);
  const n = Number(token);
  return Number.isSafeInteger(n) ? n : BigInt(token);
}

/** Parses JSON text without losing int64 precision. Throws SyntaxError on malformed input. */
export function parseJsonLossless(text: string): JsonValue {
  return parse(text, null, parseNumberToken) as JsonValue;
}

/** Integer tokens as `parseNumberToken` reads them; every other number token as JSON.parse reads it. */
function exactIntegerToken(token: string): number | bigint {
  return INTEGER_TOKEN.test(token) ? (parseNumberToken(token) as number | bigint) : Number(token);
}

/**
 * Parses JSON text as JSON.parse does, but an integer token beyond 2^53 becomes a `bigint` with its exact
 * digits: for readers that compare ids but treat other numbers as plain numbers (the partner's traffic).
 * Throws SyntaxError on malformed input.
 */
export function parseJsonExactIntegers(text: string): unknown {
  return parse(text, null, exactIntegerToken);
}

const numberStringifiers = [
  { test: (v: unknown) => typeof v === 'bigint', stringify: (v: unknown) => String(v) },
  {
    test: (v: unknown) => v instanceof JsonDecimal,
    stringify: (v: unknown) => (v instanceof JsonDecimal ? v.raw : String(v)),
  },
];

/** Serializes a value to JSON; bigints are written as integer tokens, never as strings or floats. */
export function stringifyJsonLossless(value: unknown, space?: number): string {
  return stringify(value, null, space, numberStringifiers) ?? 'null';
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof JsonDecimal);
}

/** True for a JSON integer token within the signed 64-bit range. */
export function isInt64(value: unknown): value is number | bigint {
  if (typeof value === 'number') return Number.isSafeInteger(value);
  if (typeof value === 'bigint') return value >= -(2n ** 63n) && value <= 2n ** 63n - 1n;
  return false;
}
