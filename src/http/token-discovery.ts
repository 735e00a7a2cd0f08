// An org token in a response (a redemption) is a secret from the moment it arrives: it is found
// wherever the answer puts it, a few levels down, before anything records the answer.

import { isJsonObject } from '../json/lossless.js';
import type { JsonValue } from '../json/lossless.js';

/** Deep enough for `{data: {org_token}}` and lists of them; shorter strings are no token to hide. */
const MAX_DEPTH = 4;
const MIN_TOKEN_LENGTH = 8;

export function findOrgTokens(json: JsonValue | undefined, out: string[] = [], depth = 0): string[] {
  if (depth > MAX_DEPTH) return out;
  if (Array.isArray(json)) for (const item of json) findOrgTokens(item, out, depth + 1);
  else if (isJsonObject(json)) {
    for (const [key, value] of Object.entries(json)) {
      if (key === 'org_token' && typeof value === 'string' && value.length >= MIN_TOKEN_LENGTH) out.push(value);
      else findOrgTokens(value, out, depth + 1);
    }
  }
  return out;
}
