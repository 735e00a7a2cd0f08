// The 200 answer of a reveal judged as a Reveal result, for the sandbox and the production reveal
// checks alike. What comes before it differs: the sandbox never holds a reveal (a 202 or 402 there is a
// failure), production may (a skip), so each suite states that step itself.

import type { ApiResponse } from '../../src/http/types.js';
import type { JsonObject } from '../../src/json/lossless.js';
import type { CheckContext } from '../../src/api-setup/check.js';
import { S } from '../../src/spec/sections.js';
import { obj } from './json-values.js';

/**
 * A 200 whose body is a JSON object that the reveal-result schema accepts; records what is wrong and
 * gives undefined otherwise. `schemaSees` is the part of the body the schema judges (all of it unless
 * a field is judged by a check of its own).
 */
export function expectRevealResult(
  t: CheckContext,
  res: ApiResponse,
  what: string,
  schemaSees: (body: JsonObject) => JsonObject = (body) => body,
): JsonObject | undefined {
  if (!t.expect.status(res, 200, S.reveal)) return undefined;
  const body = obj(res.json);
  if (!body) {
    t.expect.fail({ message: `${what}: the 200 body is not a JSON object`, spec: S.revealResult }, res);
    return undefined;
  }
  if (!t.expect.schema(schemaSees(body), 'reveal-result', S.revealResult, res)) return undefined;
  return body;
}
