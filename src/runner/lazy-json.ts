// A large answer is parsed only when a check reads `json` (src/http/answer.ts: held weakly, its
// repeated small items shared). Here, the runner's part: once the certification is interrupted,
// reading the JSON of a large answer throws instead of parsing, so a check still unwinding after its
// result was settled does not keep the CPU from the reports (0.5 s per 6 MB answer).

import type { ApiClient, ApiResponse } from '../http/types.js';

/** The response whose large body is no longer parsed once `signal` is aborted; small answers unchanged. */
export function lazyJson(res: ApiResponse, signal?: AbortSignal): ApiResponse {
  if (signal === undefined || res.large !== true) return res;
  const guarded = (name: 'json' | 'jsonError' | 'text'): PropertyDescriptor => ({
    get: () => {
      if (signal.aborted) throw new Error('interrupted: the answer is no longer judged');
      return res[name];
    },
    enumerable: true,
  });
  // Descriptors, not a spread: a spread would read (and parse) the JSON.
  const props = {
    ...Object.getOwnPropertyDescriptors(res),
    json: guarded('json'),
    jsonError: guarded('jsonError'),
    text: guarded('text'),
  };
  return Object.defineProperties({}, props) as ApiResponse;
}

/** `api` whose answers go through lazyJson. */
export function withLazyJson(api: ApiClient, signal?: AbortSignal): ApiClient {
  return {
    request: async (spec) => lazyJson(await api.request(spec), signal),
    get: async (path, opts) => lazyJson(await api.get(path, opts), signal),
    post: async (path, body, opts) => lazyJson(await api.post(path, body, opts), signal),
  };
}
