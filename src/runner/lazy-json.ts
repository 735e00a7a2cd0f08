// A large answer keeps its text and forgets its parsed JSON: parsed again when a check reads `json`.
//
// A target answering 6 MB of `{}` makes every parsed answer about 110 MB of objects (1e5 elements:
// 11 MB), and up to 64 checks run at once, each holding its answers while it waits: 17 parsed
// answers were alive at once in a heap snapshot of the 1e5 case. Held as text (one byte a
// character), an answer costs its size. The parsed value is cached in a WeakRef, which lives at
// least to the end of the current job, so a check that reads `res.json` several times while it judges
// parses once; the certifier still judges the whole body it read.

import type { ApiClient, ApiResponse } from '../http/types.js';
import { parseJsonLossless, type JsonValue } from '../json/lossless.js';
import { LAZY_JSON_ABOVE_CHARS } from './limits.js';

/**
 * The response with `json` parsed on demand when its text is large; small answers unchanged. Once
 * `signal` is aborted (the certification interrupted) reading `json` throws instead of parsing: the
 * check's result is settled, and its code still unwinding must not keep the CPU from the reports.
 */
export function lazyJson(res: ApiResponse, signal?: AbortSignal): ApiResponse {
  const first = res.json;
  // A scalar cannot be held weakly, and a small answer is cheap to keep.
  if (typeof first !== 'object' || first === null || res.text.length <= LAZY_JSON_ABOVE_CHARS) return res;
  const { json: _dropped, ...rest } = res;
  const text = res.text;
  let cache = new WeakRef(first);
  const parsed = (): JsonValue => {
    const known = cache.deref();
    if (known !== undefined) return known;
    if (signal?.aborted) throw new Error('interrupted: the answer is no longer judged');
    const value = parseJsonLossless(text);
    // The same text parses to the same kind of value: an object or array again, held weakly.
    if (typeof value === 'object' && value !== null) cache = new WeakRef(value);
    return value;
  };
  return Object.defineProperty(rest, 'json', { get: parsed, enumerable: true }) as ApiResponse;
}

/** `api` whose answers go through lazyJson. */
export function withLazyJson(api: ApiClient, signal?: AbortSignal): ApiClient {
  return {
    request: async (spec) => lazyJson(await api.request(spec), signal),
    get: async (path, opts) => lazyJson(await api.get(path, opts), signal),
    post: async (path, body, opts) => lazyJson(await api.post(path, body, opts), signal),
  };
}
