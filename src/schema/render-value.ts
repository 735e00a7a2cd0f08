// How a schema failure shows the value at fault: as JSON (bigints as digits, JsonDecimal as its
// raw token, so "990000000001.0" stays visibly a fraction) and never a whole secret.

import { JsonDecimal, stringifyJsonLossless } from '../json/lossless.js';
import { SCANNED_PREFIXES, SHOWN_SECRET_CHARS } from '../secret-shapes.js';

const MAX_RENDERED = 200;
const SECRET_PREFIXES: readonly string[] = SCANNED_PREFIXES;
const SECRET_SHOWN = SHOWN_SECRET_CHARS;

function redactSecretLike(text: string): string {
  return SECRET_PREFIXES.some((p) => text.startsWith(p)) && text.length > SECRET_SHOWN
    ? `${text.slice(0, SECRET_SHOWN)}…`
    : text;
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

// Secret-looking strings are shortened wherever they sit inside the value, not only at the top.
function redactDeep(value: unknown): unknown {
  if (typeof value === 'string') return redactSecretLike(value);
  if (Array.isArray(value)) return value.map(redactDeep);
  if (value !== null && typeof value === 'object' && !(value instanceof JsonDecimal)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDeep(v)]));
  }
  return value;
}

/** The value as JSON, cut at 200 characters; "(absent)" for a missing value. */
export function renderValue(value: unknown): string {
  if (value === undefined) return '(absent)';
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof JsonDecimal) return value.raw;
  let text: string;
  try {
    text = stringifyJsonLossless(redactDeep(value));
  } catch {
    text = String(value);
  }
  return cut(text, MAX_RENDERED);
}

/** A short noun phrase for messages: `the string "990000000001"`, `the number token 1.0`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') return `the string ${cut(JSON.stringify(redactSecretLike(value)), 60)}`;
  if (typeof value === 'boolean') return `the boolean ${value}`;
  if (typeof value === 'bigint') {
    const inInt64 = value >= -(2n ** 63n) && value <= 2n ** 63n - 1n;
    return `the integer ${value} (${inInt64 ? 'beyond 2^53' : 'outside int64'})`;
  }
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) return `the number ${value}`;
    return Number.isSafeInteger(value) ? `the integer ${value}` : `the number ${value} (beyond 2^53, precision lost)`;
  }
  if (value instanceof JsonDecimal) return `the number token ${value.raw}`;
  if (Array.isArray(value)) return 'an array';
  return 'an object';
}
