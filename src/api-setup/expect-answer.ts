// The assertions of t.expect that judge an HTTP answer's status and error envelope.

import { isJsonObject, type JsonValue } from '../json/lossless.js';
import { renderValue } from '../runner/render.js';
import { S } from '../spec/sections.js';
import type { Expect } from './check.js';
import type { ExpectWords } from './expect-words.js';

export const statusAssertion =
  (w: ExpectWords): Expect['status'] =>
  (res, expected, spec) => {
    const list = Array.isArray(expected) ? expected : [expected];
    if (list.some((e) => statusMatches(res.status, e))) return true;
    const want = list.map((e) => (typeof e === 'number' ? String(e) : `any ${e}`)).join(' or ');
    return w.record(
      { message: `${w.answered(res)}; the spec requires ${want}`, spec, expected: want, received: String(res.status) },
      res,
    );
  };

export const errorAssertion =
  (w: ExpectWords): Expect['error'] =>
  (res, wantStatus, code, spec) => {
    if (res.status !== wantStatus) {
      return w.record(
        {
          message: `${w.answered(res)}; the spec requires ${wantStatus} ${code}`,
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
      ok = w.record(
        {
          message: `${w.req(res)} answered ${wantStatus} with content type ${renderValue(ct)}; error responses are JSON, application/json; charset=utf-8`,
          spec: S.general,
          expected: 'application/json; charset=utf-8',
          received: renderValue(ct),
        },
        res,
      );
    }
    const body = res.json;
    if (!isJsonObject(body)) {
      return w.record(
        {
          message: `${w.req(res)} answered ${wantStatus} without a JSON object body; every non-2xx response has the error envelope {error, message}`,
          spec: S.errors,
          expected: '{"error": "…", "message": "…"}',
          received: renderValue(res.jsonError ? res.text : body),
        },
        res,
      );
    }
    for (const field of ['error', 'message'] as const) {
      if (typeof body[field] !== 'string') {
        ok = w.record(
          {
            message: `${w.req(res)} answered ${wantStatus} with "${field}" ${body[field] === undefined ? 'missing' : `of type ${typeName(body[field])}`}; the error envelope requires a string "${field}"`,
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
      ok = w.record(
        {
          message: `${w.req(res)} answered ${wantStatus} with error "${body.error}"; the spec requires "${code}"`,
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
