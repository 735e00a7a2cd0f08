// Recording assertions. Each returns whether it held; when it did not, it records one
// observation a person can act on: what was received, what the spec requires, and where. Every
// message ends with the section it enforces, appended here once: a check writes it only as `spec`.

import { unparsedBodyPhrase } from '../http/answer.js';
import type { ApiResponse } from '../http/types.js';
import { isJsonObject, type JsonValue } from '../json/lossless.js';
import { valueAt } from '../json/pointer.js';
import { createAssertions, SECTION_IN_MESSAGE } from '../runner/assertions.js';
import type { Expect, WrittenObservation } from './check.js';
import { deepEqual } from '../runner/deep-equal.js';
import { describeRequest, renderValue } from '../runner/render.js';
import type { Observation, RecordedExchange } from '../runner/results.js';
import { S } from '../spec/sections.js';

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

export interface ExpectDeps {
  baseUrl: string;
  /** Records an observation; `exchange` is resolved to its index in the check's exchanges. */
  observe(observation: Omit<Observation, 'exchange'>, exchange?: RecordedExchange): void;
  validate(schemaName: string, value: unknown): SchemaIssueLike[];
  /** Told of every assertion made, held or not: a check that asserted nothing has not passed. */
  onAssert?(): void;
}

const MAX_SCHEMA_ISSUES = 8;

/** " with a body that is not JSON (cause)" for an answer whose body did not parse, else "". */
function notJson(res: ApiResponse): string {
  if (res.status === 0 || res.json !== undefined || res.jsonError === undefined || res.jsonError === 'empty body')
    return '';
  return unparsedBodyPhrase(res.jsonError);
}

export function createExpect(deps: ExpectDeps): Expect {
  const req = (res: ApiResponse): string =>
    describeRequest(res.exchange.request.method, res.exchange.request.url, deps.baseUrl);

  // The vocabulary every command shares (runner/assertions.ts), worded as run words it: the section ends the message.
  const core = createAssertions<WrittenObservation, ApiResponse>({
    wording: SECTION_IN_MESSAGE,
    specOf: (obs) => obs.spec,
    observe: (obs, res) => deps.observe(obs, res?.exchange),
    ...(deps.onAssert ? { onAssert: deps.onAssert } : {}),
  });
  /** Records a failure; the message gets its section appended (`note` goes before it: "(note; section)"). */
  const record = (obs: WrittenObservation, res?: ApiResponse, note?: string): false => core.record(obs, res, note);

  const answered = (res: ApiResponse): string => {
    if (res.status === 0) {
      const t = res.transportError;
      return `${req(res)} got no HTTP answer (${t ? `${t.code}: ${t.message}` : 'transport error'})`;
    }
    const code = isJsonObject(res.json) && typeof res.json.error === 'string' ? ` with error "${res.json.error}"` : '';
    return `${req(res)} answered ${res.status}${code}${notJson(res)}`;
  };

  const status: Expect['status'] = (res, expected, spec) => {
    const list = Array.isArray(expected) ? expected : [expected];
    if (list.some((e) => statusMatches(res.status, e))) return true;
    const want = list.map((e) => (typeof e === 'number' ? String(e) : `any ${e}`)).join(' or ');
    return record(
      { message: `${answered(res)}; the spec requires ${want}`, spec, expected: want, received: String(res.status) },
      res,
    );
  };

  const error: Expect['error'] = (res, wantStatus, code, spec) => {
    if (res.status !== wantStatus) {
      return record(
        {
          message: `${answered(res)}; the spec requires ${wantStatus} ${code}`,
          spec,
          expected: `${wantStatus} ${code}`,
          received: String(res.status),
        },
        res,
      );
    }
    let ok = true;
    const ct = res.headers['content-type'];
    if (!ct || !/^application\/json\b/i.test(ct.trim())) {
      ok = record(
        {
          message: `${req(res)} answered ${wantStatus} with content type ${renderValue(ct)}; error responses are JSON, application/json; charset=utf-8`,
          spec: S.general,
          expected: 'application/json; charset=utf-8',
          received: renderValue(ct),
        },
        res,
      );
    }
    const body = res.json;
    if (!isJsonObject(body)) {
      return record(
        {
          message: `${req(res)} answered ${wantStatus} without a JSON object body; every non-2xx response has the error envelope {error, message}`,
          spec: S.errors,
          expected: '{"error": "…", "message": "…"}',
          received: renderValue(res.jsonError ? res.text : body),
        },
        res,
      );
    }
    for (const field of ['error', 'message'] as const) {
      if (typeof body[field] !== 'string') {
        ok = record(
          {
            message: `${req(res)} answered ${wantStatus} with "${field}" ${body[field] === undefined ? 'missing' : `of type ${typeName(body[field])}`}; the error envelope requires a string "${field}"`,
            spec: S.errors,
            pointer: `/${field}`,
            expected: 'string',
            received: renderValue(body[field]),
          },
          res,
        );
      }
    }
    if (typeof body.error === 'string' && body.error !== code) {
      ok = record(
        {
          message: `${req(res)} answered ${wantStatus} with error "${body.error}"; the spec requires "${code}"`,
          spec,
          pointer: '/error',
          expected: code,
          received: renderValue(body.error),
        },
        res,
      );
    }
    return ok;
  };

  const schema: Expect['schema'] = (value, schemaName, spec, exchange) => {
    const all = deps.validate(schemaName, value);
    const issues = all.filter((i) => i.severity !== 'warning');
    const where = exchange ? `${req(exchange)} (${exchange.status})` : 'the value';
    const missing = new Map<string, number>();
    for (const i of all)
      if (i.severity === 'warning')
        missing.set(fieldPattern(i.pointer), (missing.get(fieldPattern(i.pointer)) ?? 0) + 1);
    for (const [pattern, count] of missing)
      core.warn(
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
      return record(
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
      record(
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
      record(
        { message: `${where}: ${issues.length - MAX_SCHEMA_ISSUES} more schema issue(s)`, spec },
        exchange,
        `${schemaName} schema`,
      );
    }
    return false;
  };

  const header: Expect['header'] = (res, name, expected, spec, description) => {
    const value = res.headers[name.toLowerCase()];
    const ok =
      typeof expected === 'function'
        ? expected(value)
        : expected instanceof RegExp
          ? value !== undefined && expected.test(value)
          : value === expected;
    if (ok) return true;
    const want =
      description ??
      (typeof expected === 'function'
        ? 'a different value'
        : expected instanceof RegExp
          ? `a value matching ${expected}`
          : `"${expected}"`);
    return record(
      {
        message: `${req(res)} answered header ${name} ${value === undefined ? 'absent' : renderValue(value)}; the spec requires ${want}`,
        spec,
        expected: want,
        received: renderValue(value),
      },
      res,
    );
  };

  const equal: Expect['equal'] = (actual, expected, what, spec, exchange) => {
    if (deepEqual(actual, expected)) return true;
    return record(
      {
        message: `${exchange ? `${req(exchange)}: ` : ''}${what} is ${renderValue(actual, 120)}; the spec requires ${renderValue(expected, 120)}`,
        spec,
        expected: renderValue(expected),
        received: renderValue(actual),
      },
      exchange,
    );
  };

  const field: Expect['field'] = (res, pointer, expected, spec, description) => {
    const value = valueAt(res.json, pointer);
    const ok = typeof expected === 'function' ? expected(value) : deepEqual(value, expected);
    if (ok) return true;
    const want = description ?? (typeof expected === 'function' ? 'a different value' : renderValue(expected, 120));
    return record(
      {
        message: `${req(res)} answered ${pointer} ${value === undefined ? 'absent' : renderValue(value, 120)}; the spec requires ${want}`,
        spec,
        pointer,
        expected: want,
        received: renderValue(value),
      },
      res,
    );
  };

  const some: Expect['some'] = (items, matches, obs, exchange) => {
    if (items.some(matches)) return true;
    const received =
      obs.received === undefined
        ? renderValue(items)
        : typeof obs.received === 'string'
          ? obs.received
          : renderValue(obs.received);
    return record(
      {
        message: `${obs.what} has no item ${obs.description}; ${items.length === 0 ? 'it is empty' : `it holds ${received}`}`,
        spec: obs.spec,
        pointer: obs.pointer,
        expected: `an item ${obs.description}`,
        received,
      },
      exchange,
    );
  };

  const counted =
    <A extends unknown[]>(f: (...args: A) => boolean) =>
    (...args: A): boolean => {
      deps.onAssert?.();
      return f(...args);
    };
  return {
    status: counted(status),
    error: counted(error),
    schema: counted(schema),
    header: counted(header),
    equal: counted(equal),
    that: core.that,
    fail: core.fail,
    field: counted(field),
    some: counted(some),
    warn: core.warn,
  } as Expect;
}

function statusMatches(actual: number, expected: number | string): boolean {
  if (typeof expected === 'number') return actual === expected;
  const m = /^([1-5])xx$/i.exec(expected);
  if (m) return Math.floor(actual / 100) === Number(m[1]);
  return String(actual) === expected;
}

function typeName(v: JsonValue | undefined): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'bigint') return 'number';
  return typeof v;
}
