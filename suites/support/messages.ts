// Renderings for check messages: a value as JSON text with exact digits, the first few of many
// findings and how many in all, issue lists, the error code of an answer.

import type { ApiResponse } from '../../src/http/types.js';
import { boundedJson } from '../../src/json/bounded-json.js';
import { JsonDecimal, type JsonObject } from '../../src/json/lossless.js';
import { obj } from './json-values.js';

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

/** Containers nested deeper than this are shown as `[…]` / `{…}`: a message needs no more, and no depth can throw. */
const SHOW_DEPTH = 64;

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
