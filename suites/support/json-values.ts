// Reading lossless JSON bodies without casts everywhere: an object, an array, the objects of an
// array, an integer (number or bigint), and 2^53, past which a float64 decoder loses digits.

import { isJsonObject, type JsonObject, type JsonValue } from '../../src/json/lossless.js';

export function obj(v: JsonValue | undefined): JsonObject | undefined {
  return isJsonObject(v) ? v : undefined;
}

export function arr(v: JsonValue | undefined): JsonValue[] {
  return Array.isArray(v) ? v : [];
}

const allObjects = (items: JsonValue[]): items is JsonObject[] => items.every(isJsonObject);

/** The objects of an array; the array itself when they are all objects (no check changes an answer). */
export function objects(v: JsonValue | undefined): JsonObject[] {
  const items = arr(v);
  // A copy per check of a hostile answer's million items was 10 MB each, twenty checks at once.
  return allObjects(items) ? items : items.filter(isJsonObject);
}

/** 2^53: ids above it lose digits in a float64 decoder (the int64 checks look for one). */
export const TWO_POW_53 = 2n ** 53n;

/** Integer value of a lossless number (number or bigint), else undefined. */
export function int(v: JsonValue | undefined): bigint | undefined {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  return undefined;
}
