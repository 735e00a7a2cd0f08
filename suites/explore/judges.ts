// How an answer to a generated request is judged: a refusal with the error envelope, a valid answer,
// its schema, the shape of what was stored.

import type { ApiResponse } from '../../src/http/types.js';
import { isJsonObject, JsonDecimal, type JsonObject, type JsonValue } from '../../src/json/lossless.js';
import { mismatchClasses, unusualClasses, type CaseClass, type ExploreShape } from '../../src/schema/explore-cases.js';
import { validateAgainst } from '../../src/schema/validator.js';
import { obj } from '../support/json-values.js';
import type { Endpoint } from './endpoints.js';
import { PLAIN, type Property } from './sending.js';

/** A failure's one-line reason, or undefined when the answer holds the property. */
type Judge = (res: ApiResponse, body: unknown) => string | undefined;

const isEnvelope = (res: ApiResponse): boolean => {
  const b = obj(res.json);
  return b !== undefined && typeof b.error === 'string' && typeof b.message === 'string';
};

export const judgeMismatch: Judge = (res) => {
  if (res.status >= 200 && res.status < 300) return `answered ${res.status}: the mismatch was accepted`;
  if (res.status === 0) return `got no answer (${res.transportError?.code ?? 'transport error'})`;
  if (res.status >= 500) return `answered ${res.status}, a service-side failure`;
  if (res.status < 400) return `answered ${res.status}, not a 4xx`;
  if (!isEnvelope(res)) return `answered ${res.status} without the error envelope {"error", "message"}`;
  return undefined;
};

export const judgeValid: Judge = (res) =>
  res.status === 0
    ? `got no answer (${res.transportError?.code ?? 'transport error'})`
    : res.status >= 500
      ? `answered ${res.status}`
      : undefined;

/**
 * An answer's top-level integers written with a zero fraction (`"accepted": 1.0`) read as the integers
 * they denote: how a service writes its numbers is the catalogue's to judge (the decisions checks warn
 * on it, RFC 8259 having one number type); the exploration judges what generated bodies do.
 */
export function integralTopLevel(value: JsonValue | undefined): JsonValue | null {
  if (!isJsonObject(value)) return value ?? null;
  const out: JsonObject = { ...value };
  for (const [k, v] of Object.entries(value))
    if (v instanceof JsonDecimal && Number.isSafeInteger(v.value)) out[k] = v.value;
  return out;
}

export function judgeSchema(ep: Endpoint): Judge {
  return (res) => {
    if (res.status < 200 || res.status >= 300) return undefined;
    const issues = validateAgainst(ep.response, integralTopLevel(res.json));
    const first = issues[0];
    return first
      ? `answered ${res.status} with a body off ${ep.response} (${first.pointer || '/'}: ${first.message})`
      : undefined;
  };
}

/** The case list a check explores: its classes, drawn in turn from its own seeded streams. */
export function classesOf(ep: Endpoint, property: Property): CaseClass[] {
  switch (property) {
    case 'mismatch':
      return mismatchClasses(ep.shape);
    case 'valid':
      return unusualClasses(ep.shape);
    case 'schema':
      return [PLAIN, ...unusualClasses(ep.shape, { textOnly: true })];
    case 'stored':
      return mismatchClasses(storedShape(ep));
  }
}

/**
 * The stored-nothing property mutates only what leaves the write readable back: for jobs every field
 * but the upsert key; for decisions only the second decision of two, the first then resent alone.
 */
export function storedShape(ep: Endpoint): ExploreShape {
  if (ep.name === 'decisions')
    return { ...ep.shape, item: 1, keep: ['acting_user_external_id', 'decisions', 'notices_shown', 'notices_shown/*'] };
  return { ...ep.shape, keep: ['external_id'] };
}
