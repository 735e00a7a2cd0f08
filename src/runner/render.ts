// Compact renderings of received values for observations: one line, bigints as digits, long
// values cut so a report stays readable.

import { JsonDecimal, stringifyJsonLossless } from '../json/lossless.js';
import { RENDERED_VALUE_CHARS } from './limits.js';

/**
 * The JSON of `v`, written only until it passes `max` characters: a million-item array is never
 * serialized in full to show its first 240 characters.
 */
function boundedJson(v: unknown, max: number): string {
  let out = '';
  const write = (value: unknown): void => {
    if (out.length > max) return;
    if (Array.isArray(value)) {
      out += '[';
      for (let i = 0; i < value.length && out.length <= max; i++) {
        if (i > 0) out += ',';
        write(value[i]);
      }
      out += ']';
    } else if (
      value !== null &&
      typeof value === 'object' &&
      !(value instanceof JsonDecimal) &&
      Object.getPrototypeOf(value) === Object.prototype
    ) {
      out += '{';
      let first = true;
      for (const key of Object.keys(value)) {
        if (out.length > max) break;
        const member = (value as Record<string, unknown>)[key];
        if (member === undefined) continue;
        out += `${first ? '' : ','}${JSON.stringify(key)}:`;
        first = false;
        write(member);
      }
      out += '}';
    } else out += stringifyJsonLossless(value);
  };
  write(v);
  return out;
}

export function renderValue(v: unknown, max = RENDERED_VALUE_CHARS): string {
  let s: string;
  if (v === undefined) s = '(absent)';
  else if (typeof v === 'string') s = JSON.stringify(v.length > max ? v.slice(0, max) : v);
  else if (typeof v === 'bigint') s = v.toString();
  else {
    try {
      s = boundedJson(v, max);
    } catch {
      s = String(v);
    }
  }
  // Built from the cut pieces, so the result never holds a view of a large parent string.
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** "POST /runs" from a recorded request, relative to the base URL. */
export function describeRequest(method: string, url: string, baseUrl: string): string {
  let path = url.startsWith(baseUrl) ? url.slice(baseUrl.length) : url;
  if (path === '') path = '/';
  return `${method.toUpperCase()} ${path.split('?')[0]}`;
}
