// The schema assertion of t.expect: a value against a named schema of schemas/. Fields the spec lists
// without stating them always present are warned about once per field, not once per item.

import { unparsedBodyPhrase } from '../http/answer.js';
import type { Expect } from './check.js';
import type { ExpectWords } from './expect-words.js';

export interface SchemaIssueLike {
  pointer: string;
  keyword: string;
  message: string;
  received: string;
  /** `warning`: a field the spec lists without stating it always present is missing. */
  severity?: 'warning';
}

/** The reading a missing listed field is judged by (Readings decided: "at most a warning"). */
const MISSING_LISTED_FIELD = {
  reading:
    'the spec\'s table lists the field but states it always present nowhere (no Required column, "Required fields", "All fields required" or "always present" covers it), so an answer may leave it out, as a serializer that omits nulls does',
  otherReading: 'a table that lists a field may mean every answer carries it',
};

/** A pointer with its array indexes as `*` (`/candidates/3/evidence` → `/candidates/*` + `/evidence`): one warning per field, not per item. */
function fieldPattern(pointer: string): string {
  return pointer.replace(/\/\d+(?=\/|$)/g, '/*');
}

const MAX_SCHEMA_ISSUES = 8;

export const schemaAssertion =
  (w: ExpectWords, validate: (schemaName: string, value: unknown) => SchemaIssueLike[]): Expect['schema'] =>
  (value, schemaName, spec, exchange) => {
    const all = validate(schemaName, value);
    const issues = all.filter((i) => i.severity !== 'warning');
    const where = exchange ? `${w.req(exchange)} (${exchange.status})` : 'the value';
    const missing = new Map<string, number>();
    for (const i of all)
      if (i.severity === 'warning')
        missing.set(fieldPattern(i.pointer), (missing.get(fieldPattern(i.pointer)) ?? 0) + 1);
    for (const [pattern, count] of missing)
      w.warn(
        false,
        {
          message: `${where}: ${pattern} is missing${count > 1 ? ` (${count} places)` : ''} (${schemaName} schema)`,
          spec,
          pointer: pattern,
          expected: 'present',
          received: 'absent',
          ...MISSING_LISTED_FIELD,
        },
        exchange,
      );
    if (issues.length === 0) return true;
    // A body that did not parse is judged once, by its cause, not by what a missing value lacks.
    if (value === undefined && exchange?.jsonError !== undefined && exchange.status !== 0) {
      return w.record(
        {
          message: `${where}:${unparsedBodyPhrase(exchange.jsonError).replace(/^ with a body/, ' the body is')}`,
          spec,
          expected: 'JSON',
        },
        exchange,
        `${schemaName} schema`,
      );
    }
    for (const issue of issues.slice(0, MAX_SCHEMA_ISSUES)) {
      w.record(
        {
          message: `${where}: ${issue.pointer || '(body)'} ${issue.message}`,
          spec,
          pointer: issue.pointer,
          expected: issue.keyword,
          received: issue.received,
        },
        exchange,
        `${schemaName} schema`,
      );
    }
    if (issues.length > MAX_SCHEMA_ISSUES) {
      w.record(
        { message: `${where}: ${issues.length - MAX_SCHEMA_ISSUES} more schema issue(s)`, spec },
        exchange,
        `${schemaName} schema`,
      );
    }
    return false;
  };
