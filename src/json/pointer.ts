// RFC 6901 JSON pointers over lossless JSON values: where an observation points in a body.

import { isJsonObject, type JsonValue } from './lossless.js';

/** The value at `pointer` ('' is the whole value), or undefined when any step is missing. */
export function valueAt(value: JsonValue | undefined, pointer: string): JsonValue | undefined {
  if (pointer === '') return value;
  let at: JsonValue | undefined = value;
  for (const raw of pointer.replace(/^\//, '').split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(at)) at = /^(0|[1-9]\d*)$/.test(key) ? at[Number(key)] : undefined;
    else if (isJsonObject(at)) at = Object.hasOwn(at, key) ? at[key] : undefined;
    else return undefined;
  }
  return at;
}
