import { randomBytes } from 'node:crypto';
import { parse } from 'lossless-json';

/**
 * A JSON number token with a fraction or exponent. The v1 API has no such numbers, so keeping it apart
 * lets validation refuse `990000000001.0` where an int64 is required instead of silently accepting it.
 */
export class FloatToken {
  constructor(readonly raw: string) {}
}

export type Json = null | boolean | string | number | bigint | FloatToken | Json[] | { [key: string]: Json };
export type JsonRecord = { [key: string]: Json };

const INTEGER = /^-?(0|[1-9][0-9]*)$/;

function parseNumber(token: string): number | bigint | FloatToken {
  if (!INTEGER.test(token)) return new FloatToken(token);
  const n = Number(token);
  return Number.isSafeInteger(n) ? n : BigInt(token);
}

/** Parses request JSON without losing int64 precision; throws SyntaxError on malformed text. */
export function parseJson(text: string): Json {
  return parse(text, null, parseNumber) as Json;
}

export function isRecord(v: unknown): v is JsonRecord {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof FloatToken);
}

/** An int64-valued integer token (number or bigint), or undefined. */
export function asInt64(v: unknown): bigint | undefined {
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
  if (typeof v === 'bigint' && v >= -(2n ** 63n) && v < 2n ** 63n) return v;
  return undefined;
}

// Number tokens JSON.stringify cannot write (int64 beyond 2^53, a deliberate `1.0`) are emitted by toJSON as a
// string carrying this per-process nonce, then unquoted. Native JSON.stringify stays on the fast path.
const NONCE = `zzn${randomBytes(8).toString('hex')}_`;
const MARKED = new RegExp(`"${NONCE}(-?[0-9][0-9.eE+-]*)"`, 'g');

/** A number token written verbatim (an int64 id, or a non-canonical number a fault emits on purpose). */
export class RawNumber {
  constructor(readonly text: string) {}
  toJSON(): string {
    return NONCE + this.text;
  }
}

export function int64(v: bigint): RawNumber {
  return new RawNumber(v.toString());
}

function bigintReplacer(_key: string, v: unknown): unknown {
  return typeof v === 'bigint' ? NONCE + v.toString() : v instanceof FloatToken ? NONCE + v.raw : v;
}

/** Serializes a response body; bigints and RawNumbers become integer tokens, never strings or floats. */
export function stringifyJson(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? 'null';
  } catch {
    // A bare bigint somewhere: slower path with a replacer.
    text = JSON.stringify(value, bigintReplacer) ?? 'null';
  }
  return text.includes(NONCE) ? text.replace(MARKED, '$1') : text;
}
