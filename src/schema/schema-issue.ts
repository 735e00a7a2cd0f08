// Turns ajv's errors into issues a person can act on: where (JSON pointer), what rule, what was there.

import type { ErrorObject } from 'ajv/dist/2020.js';
import { INT64_KEYWORD } from './int64-keyword.js';
import { JSON_OBJECT_KEYWORD } from './json-object-keyword.js';
import { describeValue, renderValue } from './render-value.js';

export interface SchemaIssue {
  /** JSON pointer to the value at fault ("" is the whole document); for a missing property, where it belongs. */
  pointer: string;
  /** The JSON Schema keyword that failed: required, type, enum, format, int64, … */
  keyword: string;
  message: string;
  /** The offending value as JSON, cut at 200 characters; bigint as digits, JsonDecimal as its raw token. */
  received: string;
  /** `warning`: a field the spec lists without stating it always present is missing (not a mismatch). */
  severity?: 'warning';
}

const TYPE_NOUNS: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

const FORMAT_PHRASES: Record<string, string> = {
  uuid: 'a uuid (8-4-4-4-12 hex digits)',
  'utc-date-time': 'an ISO 8601 date-time in UTC (ending in Z, +00, +0000 or +00:00)',
  'date-time': 'an RFC 3339 date-time',
};

function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function listValues(values: unknown[]): string {
  return values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');
}

function typePhrase(types: unknown): string {
  const list = Array.isArray(types) ? types : [types];
  return list.map((t) => TYPE_NOUNS[String(t)] ?? String(t)).join(' or ');
}

function messageFor(e: ErrorObject): string {
  const not = `, not ${describeValue(e.data)}`;
  switch (e.keyword) {
    case 'type':
      return `must be ${typePhrase(e.schema)}${not}`;
    case 'enum':
      return `must be one of ${listValues(Array.isArray(e.schema) ? e.schema : [])}${not}`;
    case 'const':
      return `must be ${JSON.stringify(e.schema)}${not}`;
    case 'format': {
      const format = String(e.params['format']);
      return `must be ${FORMAT_PHRASES[format] ?? `in format ${format}`}${not}`;
    }
    case 'pattern':
      return `must match the pattern ${String(e.schema)}${not}`;
    case INT64_KEYWORD:
      return `must be an integer within int64${not}`;
    case JSON_OBJECT_KEYWORD:
      return `must be an object${not}`;
    default:
      return e.message ?? `must satisfy ${e.keyword}`;
  }
}

function toIssue(e: ErrorObject): SchemaIssue {
  if (e.keyword === 'required') {
    const missing = String(e.params['missingProperty']);
    return {
      pointer: `${e.instancePath}/${escapePointerToken(missing)}`,
      keyword: 'required',
      message: `must have required property '${missing}'`,
      received: renderValue(undefined),
    };
  }
  return { pointer: e.instancePath, keyword: e.keyword, message: messageFor(e), received: renderValue(e.data) };
}

// Once a value has the wrong type, its enum, format or missing-member failures only repeat the
// same fault: they are dropped at that pointer and below it.
const DECISIVE = new Set(['type', INT64_KEYWORD, JSON_OBJECT_KEYWORD]);

function isAtOrBelow(pointer: string, decided: ReadonlySet<string>): boolean {
  for (let p = pointer; ; p = p.slice(0, p.lastIndexOf('/'))) {
    if (decided.has(p)) return true;
    if (p === '') return false;
  }
}

/** Requires errors produced with ajv's `verbose: true` (they carry `data` and `schema`). */
export function toSchemaIssues(errors: readonly ErrorObject[]): SchemaIssue[] {
  const issues = errors.map(toIssue);
  const decided = new Set(issues.filter((i) => DECISIVE.has(i.keyword)).map((i) => i.pointer));
  const seen = new Set<string>();
  return issues.filter((i) => {
    if (!DECISIVE.has(i.keyword) && isAtOrBelow(i.pointer, decided)) return false;
    const key = `${i.pointer}\u0000${i.keyword}\u0000${i.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
