// Deep equality for lossless JSON values: an integer equals itself whether it arrived as a
// number or a bigint; a JsonDecimal (`1.0`) never equals an integer, on purpose.

import { JsonDecimal } from '../json/lossless.js';

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) {
    if (typeof a === 'number' && !Number.isInteger(a)) return false;
    if (typeof b === 'number' && !Number.isInteger(b)) return false;
    return BigInt(a) === BigInt(b);
  }
  if (a instanceof JsonDecimal || b instanceof JsonDecimal) {
    return a instanceof JsonDecimal && b instanceof JsonDecimal && a.raw === b.raw;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => deepEqual(x, b[i]));
  }
  if (typeof a === 'object' && typeof b === 'object' && a !== null && b !== null) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    if (ka.length !== kb.length) return false;
    return ka.every(
      (k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual(Reflect.get(a, k), Reflect.get(b, k)),
    );
  }
  return false;
}
