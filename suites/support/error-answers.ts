// Assertions on error answers more than one suite makes: the JSON error envelope, a 422 rejection
// with its rejected[] items, and a sandbox reveal that is neither 202 pending nor 402.

import type { ApiResponse } from '../../src/http/types.js';
import type { JsonObject } from '../../src/json/lossless.js';
import type { CheckContext } from '../../src/api-setup/check.js';
import type { SpecSection } from '../../src/spec/section-names.js';
import type { SchemaName } from '../../src/schema/schema-names.js';
import { S } from '../../src/spec/sections.js';
import { obj, objects } from './json-values.js';
import { errorSuffix, show } from './messages.js';
import { TOO_DEEP_TO_JUDGE } from '../../src/json/deep-parse.js';

/** A body that did not parse, with its head; one nested past what the certifier parses is not called "not JSON". */
function unparsedBody(jsonError: string, text: string): string {
  if (jsonError.startsWith(TOO_DEEP_TO_JUDGE)) return `a body ${jsonError}`;
  return `a body that is not JSON (${jsonError}: ${JSON.stringify(text.slice(0, 120))})`;
}

/** An error answer whose code v1 leaves open: the JSON envelope {error, message} of strings. */
export function expectErrorEnvelope(t: CheckContext, res: ApiResponse, what: string): boolean {
  const body = obj(res.json);
  return t.expect.that(
    body !== undefined && typeof body.error === 'string' && typeof body.message === 'string',
    {
      message: `${what} answered ${res.status} with ${res.jsonError ? unparsedBody(res.jsonError, res.text) : show(res.json ?? null).slice(0, 200)}; every non-2xx response has the JSON envelope {"error": string, "message": string}`,
      spec: S.errors,
      expected: '{"error": "…", "message": "…"}',
      received: res.jsonError ? res.text.slice(0, 200) : (res.json ?? null),
    },
    res,
  );
}

/**
 * A 422 rejection with its error code, and its body against `schema`: the `rejected[]` items, or
 * undefined when the answer was no such rejection (or, with `validBody`, when its body breaks the schema).
 */
export function expectRejected(
  t: CheckContext,
  res: ApiResponse,
  want: { code: string; schema: SchemaName; spec: SpecSection; schemaSpec?: SpecSection; validBody?: boolean },
): JsonObject[] | undefined {
  if (!t.expect.error(res, 422, want.code, want.spec)) return undefined;
  if (!t.expect.schema(res.json, want.schema, want.schemaSpec ?? want.spec, res) && want.validBody) return undefined;
  return objects(obj(res.json)?.rejected);
}

/**
 * A sandbox reveal is "never `202 pending` and never `402`" (Sandbox behaviour): either answer fails
 * with that sentence, whatever the price quoted; false when it was one of them.
 */
export function expectNotPendingOrRefused(t: CheckContext, res: ApiResponse, what: string): boolean {
  return t.expect.that(
    res.status !== 202 && res.status !== 402,
    {
      message: `${what} answered ${res.status}${errorSuffix(res)}; a sandbox reveal is never 202 pending and never 402, whatever price was quoted`,
      spec: S.sandbox,
      expected: '200 with the synthetic contact (or run_not_found, user_not_found, candidate_not_in_run)',
      received: String(res.status),
    },
    res,
  );
}
