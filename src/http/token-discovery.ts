// An org token in a response (a redemption) is a secret from the moment it arrives: it is found
// wherever the answer puts it, a few levels down, before anything records the answer.
//
// What an answer can make a secret is bounded: a target handing out thousands of tokens, or one of
// 10,000 characters, gets no more than MAX_TOKENS_PER_ANSWER of at most MAX_TOKEN_CHARS characters
// each (a real token is 52); the rest are counted as `ignored`, for the caller to report.

import { isJsonObject } from '../json/lossless.js';
import type { JsonValue } from '../json/lossless.js';

/** Deep enough for `{data: {org_token}}` and lists of them; shorter strings are no token to hide. */
const MAX_DEPTH = 4;
const MIN_TOKEN_LENGTH = 8;
export const MAX_TOKEN_CHARS = 1024;
export const MAX_TOKENS_PER_ANSWER = 16;

export interface FoundTokens {
  tokens: string[];
  /** `org_token` strings left out: over the count or the length bound. */
  ignored: number;
  /** Of those, the ones longer than MAX_TOKEN_CHARS, and the length of the longest (0 when none). */
  tooLong: number;
  longest: number;
}

export function findOrgTokens(json: JsonValue | undefined): string[] {
  return discoverOrgTokens(json).tokens;
}

export function discoverOrgTokens(json: JsonValue | undefined): FoundTokens {
  const found: FoundTokens = { tokens: [], ignored: 0, tooLong: 0, longest: 0 };
  const seen = new Set<string>();
  // Iterative, so no nesting of the answer can exhaust the stack; only containers are stacked, each
  // pushed in reverse so the answer is read in document order.
  const values: unknown[] = [json];
  const depths: number[] = [0];
  while (values.length > 0) {
    const value = values.pop();
    const depth = depths.pop() ?? 0;
    if (depth > MAX_DEPTH) continue;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) {
        const item: unknown = value[i];
        if (typeof item === 'object' && item !== null) {
          values.push(item);
          depths.push(depth + 1);
        }
      }
    } else if (isJsonObject(value as JsonValue)) {
      const entries = Object.entries(value as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i] ?? ['', undefined];
        if (key === 'org_token' && typeof item === 'string') {
          if (item.length < MIN_TOKEN_LENGTH || seen.has(item)) continue;
          seen.add(item);
          if (item.length > MAX_TOKEN_CHARS) {
            found.ignored++;
            found.tooLong++;
            found.longest = Math.max(found.longest, item.length);
          } else found.tokens.push(item);
        } else if (typeof item === 'object' && item !== null) {
          values.push(item);
          depths.push(depth + 1);
        }
      }
    }
  }
  if (found.tokens.length > MAX_TOKENS_PER_ANSWER) {
    found.ignored += found.tokens.length - MAX_TOKENS_PER_ANSWER;
    found.tokens.length = MAX_TOKENS_PER_ANSWER;
  }
  return found;
}
