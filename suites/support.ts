// Small helpers shared by suites: reading lossless JSON bodies without casts everywhere, and the few
// renderings and assertions more than one suite needs (each written here once).

import { randomBytes, randomUUID } from 'node:crypto';
import type { ApiResponse } from '../src/http/types.js';
import { boundedJson } from '../src/json/bounded-json.js';
import { isJsonObject, JsonDecimal, type JsonObject, type JsonValue } from '../src/json/lossless.js';
import type { CheckContext } from '../src/api-setup/check.js';
import { describeEvidence } from '../src/api-setup/environment-evidence.js';
import type { SpecSection } from '../src/spec/section-names.js';
import { isRfc3339UtcDateTime, isUtcDateTime } from '../src/schema/formats.js';
import type { SchemaName } from '../src/schema/schema-names.js';
import { S } from '../src/spec/sections.js';

export { randomUUID };

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

/** Items a message names before it counts the rest. */
export const NAMED_IN_MESSAGE = 10;

/**
 * "a, b, c, … and 997 more": the first NAMED_IN_MESSAGE of `items` rendered. A message naming each
 * of a hostile answer's million bad items was megabytes, built in every check that found them.
 */
export function someOf<T>(items: readonly T[], render: (item: T) => string = show): string {
  return describeFound({ some: items.slice(0, NAMED_IN_MESSAGE), count: items.length }, render);
}

/** The first NAMED_IN_MESSAGE findings of a scan, and how many there were in all. */
export interface Found<R> {
  some: R[];
  count: number;
}

/** What `find` returns for the items it finds something in: the first few kept, all counted. */
export function firstFound<T, R>(items: readonly T[], find: (item: T, index: number) => R | undefined): Found<R> {
  const found: Found<R> = { some: [], count: 0 };
  items.forEach((item, i) => {
    const r = find(item, i);
    if (r === undefined) return;
    if (found.count++ < NAMED_IN_MESSAGE) found.some.push(r);
  });
  return found;
}

/** "a, b, c, … and 997 more". */
export function describeFound<R>({ some, count }: Found<R>, render: (item: R) => string = show): string {
  const named = some.map(render).join(', ');
  return count > some.length ? `${named}, … and ${count - some.length} more` : named;
}

/**
 * The run_id of an accepted run start; undefined, recorded as a failure, when the start did not answer
 * 202 or its 202 has no string run_id.
 */
export function acceptedRunId(t: CheckContext, res: ApiResponse, what = 'the run start'): string | undefined {
  if (!t.expect.status(res, 202, S.runsStart)) return undefined;
  const runId = obj(res.json)?.run_id;
  if (typeof runId === 'string') return runId;
  t.expect.fail(
    { message: `the 202 of ${what} has no string run_id (${show(runId)})`, spec: S.runsStart, pointer: '/run_id' },
    res,
  );
  return undefined;
}

/** 2^53: ids above it lose digits in a float64 decoder (the int64 checks look for one). */
export const TWO_POW_53 = 2n ** 53n;

/** Spec-time budget of a check that waits for the shared real run: 30 minutes of polling and a margin. */
export const REAL_RUN_BUDGET_MS = 32 * 60_000;

/** "; <what the header and the behaviour said>" when --environment auto decided the environment. */
export function evidenceNote(t: CheckContext): string {
  const why = describeEvidence(t.target.environmentEvidence);
  return why ? `; ${why}` : '';
}

/** The reveal path of a candidate: the id as its exact decimal digits (int64, may exceed 2^53). */
export function revealPath(runId: string, candidateId: bigint | string): string {
  return `/runs/${encodeURIComponent(runId)}/candidates/${candidateId.toString()}/reveal`;
}

/** Containers nested deeper than this are shown as `[…]` / `{…}`: a message needs no more, and no depth can throw. */
export const SHOW_DEPTH = 64;

/** A value as JSON text for a message, bigints and decimal tokens with their exact digits; no nesting exhausts the stack. */
export function show(v: unknown): string {
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof JsonDecimal) return v.raw;
  return (
    boundedJson(v, {
      maxDepth: SHOW_DEPTH,
      leaf: (x) => (typeof x === 'bigint' ? x.toString() : x instanceof JsonDecimal ? x.raw : undefined),
    }) ?? String(v)
  );
}

/** Issues of a rejected[] or warnings[] as "code@index, …" ("(none)" when empty). */
export function describeIssues(issues: JsonObject[]): string {
  return issues.length === 0 ? '(none)' : issues.map((i) => `${String(i.code)}@${String(i.index)}`).join(', ');
}

/** " <error code>" of an error answer, for "answered 404 job_not_found"; empty without one. */
export function errorSuffix(res: ApiResponse): string {
  const e = obj(res.json)?.error;
  return typeof e === 'string' ? ` ${e}` : '';
}

/** An error answer whose code v1 leaves open: the JSON envelope {error, message} of strings. */
export function expectErrorEnvelope(t: CheckContext, res: ApiResponse, what: string): boolean {
  const body = obj(res.json);
  return t.expect.that(
    body !== undefined && typeof body.error === 'string' && typeof body.message === 'string',
    {
      message: `${what} answered ${res.status} with ${res.jsonError ? `a body that is not JSON (${res.jsonError}: ${JSON.stringify(res.text.slice(0, 120))})` : show(res.json ?? null).slice(0, 200)}; every non-2xx response has the JSON envelope {"error": string, "message": string}`,
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

/** A partner key of the right shape that no service issued. */
export function unknownPartnerKey(): string {
  return `spk_live_${randomBytes(24).toString('hex')}`;
}

/** An org token of the right shape that no service issued. */
export function unknownOrgToken(): string {
  return `sot_${randomBytes(24).toString('hex')}`;
}

const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** A well-formed activation code nobody issued (1 in 31^8 chance of a clash). */
export function unknownActivationCode(): string {
  const pick = (): string => {
    let s = '';
    for (const b of randomBytes(4)) s += CODE_ALPHABET[b % CODE_ALPHABET.length];
    return s;
  };
  return `SVC-${pick()}-${pick()}`;
}

const HEBREW = /[\u05D0-\u05EA]/;
const LATIN = /[A-Za-z]/;

export function isHebrew(s: string): boolean {
  return HEBREW.test(s);
}

/** Some Latin letter: English text that may still quote Hebrew data (a place, a requirement). */
export function hasLatin(s: string): boolean {
  return LATIN.test(s);
}

export function isEnglish(s: string): boolean {
  return LATIN.test(s) && !HEBREW.test(s);
}

/**
 * `application/json; charset=utf-8` in any form RFC 9110 makes equivalent (§8.3.1, §5.6.6): type,
 * subtype and parameter names are case-insensitive, the charset value too; whitespace around `;` is
 * optional; a parameter value may be a quoted string (`charset="UTF-8"`). No other parameter.
 */
export function isJsonUtf8(contentType: string | undefined): boolean {
  const media = parseMediaType(contentType);
  if (!media || media.type !== 'application/json') return false;
  const names = Object.keys(media.params);
  return names.length === 1 && media.params.charset?.toLowerCase() === 'utf-8';
}

/** A media type as RFC 9110 §8.3.1 writes it; undefined when it does not parse. Names lower-cased. */
export function parseMediaType(text: string | undefined): { type: string; params: Record<string, string> } | undefined {
  if (text === undefined) return undefined;
  const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
  const head = new RegExp(`^[ \\t]*(${TOKEN})/(${TOKEN})[ \\t]*`).exec(text);
  if (!head) return undefined;
  const params: Record<string, string> = {};
  const param = new RegExp(`;[ \\t]*(?:(${TOKEN})=(?:(${TOKEN})|"((?:[^"\\\\]|\\\\.)*)"))?[ \\t]*`, 'y');
  param.lastIndex = head[0].length;
  while (param.lastIndex < text.length) {
    const m = param.exec(text);
    if (!m) return undefined;
    if (m[1] === undefined) continue; // an empty parameter (`;;`) is allowed by the grammar
    const name = m[1].toLowerCase();
    if (name in params) return undefined;
    params[name] = m[2] ?? m[3]!.replace(/\\(.)/g, '$1');
  }
  return { type: `${head[1]}/${head[2]}`.toLowerCase(), params };
}

/** Integer value of a lossless number (number or bigint), else undefined. */
export function int(v: JsonValue | undefined): bigint | undefined {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  return undefined;
}

/**
 * The second organization with the shared recruiter's external_id registered in it too, so that an
 * isolation check's request can only be refused for the run; undefined after `t.skip` with the reason.
 */
export async function secondOrgWithRecruiter(t: CheckContext): Promise<{ orgToken: string; user: string } | undefined> {
  const second = await t.setup.secondOrg();
  if (!second) {
    t.skip(t.setup.codeShortage('typed'));
    return undefined;
  }
  const { externalId: user, role } = await t.setup.user();
  const reg = await t.api.post(
    '/users',
    { external_id: user, email: 'recruiter@example.com', full_name: 'Dana Levi', ...roleField(role) },
    {
      auth: { partnerKey: t.inputs.partnerKey, orgToken: second.orgToken },
      label: 'register the recruiter in the second organization',
    },
  );
  if (reg.status < 200 || reg.status > 299) {
    t.skip(`registering the recruiter in the second organization answered ${reg.status}`, 'inconclusive');
    return undefined;
  }
  return { orgToken: second.orgToken, user };
}

/**
 * `{role}` as the shared setup's recruiter was accepted with (--user-role, or the certifier's guess),
 * or nothing when it was registered without one: the allowed roles are not shown in the spec, so no
 * check registers a recruiter with a role the target has not already accepted.
 */
export function roleField(role: string | undefined): { role?: string } {
  return role !== undefined ? { role } : {};
}

/**
 * "Timestamps are ISO 8601 in UTC": a value in either ISO 8601 format (extended or basic) passes; one
 * that is not in RFC 3339 form (extended, with seconds, Z or +00:00), which is what clients' date-time
 * parsers expect, warns. Only a string that is a UTC date-time is judged here: whether it is one is the
 * caller's assertion (a schema or its own). Returns whether it was in RFC 3339 form.
 */
export function warnUnlessRfc3339(
  t: CheckContext,
  value: JsonValue | undefined,
  what: string,
  spec: SpecSection,
  res?: ApiResponse,
): boolean {
  if (typeof value !== 'string' || !isUtcDateTime(value)) return true;
  return t.expect.warn(
    isRfc3339UtcDateTime(value),
    {
      message: `${what} ${JSON.stringify(value)} is ISO 8601 in UTC but not in RFC 3339 form (e.g. 2025-01-01T10:00:00Z)`,
      spec,
      expected: 'YYYY-MM-DDTHH:MM:SS[.fff](Z|+00:00)',
      received: value,
      reading:
        'clients parse timestamps with RFC 3339 / ISO 8601 extended-format parsers (Date.parse, datetime.fromisoformat), which refuse the basic format and other ISO 8601 spellings',
      otherReading:
        'the spec says only "Timestamps are ISO 8601 in UTC", and ISO 8601 allows the basic format (20250101T100000Z), omitted seconds and the designators +00 and +0000',
    },
    res,
  );
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
