// Recording assertions. Each returns whether it held; when it did not, it records one
// observation a person can act on: what was received, what the spec requires, and where. Every
// message ends with the section it enforces, appended here once: a check writes it only as `spec`.

import { unparsedBodyPhrase } from '../http/answer.js';
import type { ApiResponse } from '../http/types.js';
import { isJsonObject } from '../json/lossless.js';
import { createAssertions, SECTION_IN_MESSAGE } from '../runner/assertions.js';
import type { Expect, WrittenObservation } from './check.js';
import { errorAssertion, statusAssertion } from './expect-answer.js';
import { schemaAssertion, type SchemaIssueLike } from './expect-schema.js';
import { equalAssertion, fieldAssertion, headerAssertion, someAssertion } from './expect-values.js';
import type { ExpectWords } from './expect-words.js';
import { describeRequest } from '../runner/render.js';
import type { Observation, RecordedExchange } from '../runner/results.js';

export interface ExpectDeps {
  baseUrl: string;
  /** Records an observation; `exchange` is resolved to its index in the check's exchanges. */
  observe(observation: Omit<Observation, 'exchange'>, exchange?: RecordedExchange): void;
  validate(schemaName: string, value: unknown): SchemaIssueLike[];
  /** Told of every assertion made, held or not: a check that asserted nothing has not passed. */
  onAssert?(): void;
}

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

  const w: ExpectWords = { req, answered, record, warn: core.warn };

  const counted =
    <A extends unknown[]>(f: (...args: A) => boolean) =>
    (...args: A): boolean => {
      deps.onAssert?.();
      return f(...args);
    };
  return {
    status: counted(statusAssertion(w)),
    error: counted(errorAssertion(w)),
    schema: counted(schemaAssertion(w, deps.validate)),
    header: counted(headerAssertion(w)),
    equal: counted(equalAssertion(w)),
    that: core.that,
    fail: core.fail,
    field: counted(fieldAssertion(w)),
    some: counted(someAssertion(w)),
    warn: core.warn,
  } as Expect;
}
