import { stringifyJson } from '../json.js';

/**
 * Serializes a webhook envelope to the exact bytes that are signed and sent, with the sandbox's own JSON
 * writer (shared with the API responses): a bigint `candidate_id` is written as its digits, never through a float.
 */
export function serializeBody(value: unknown): Uint8Array {
  return Buffer.from(stringifyJson(value), 'utf8');
}
