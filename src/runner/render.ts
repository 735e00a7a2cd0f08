// Compact renderings of received values for observations: one line, bigints as digits, long
// values cut so a report stays readable.

import { stringifyJsonLossless } from '../json/lossless.js';

const MAX = 240;

export function renderValue(v: unknown, max = MAX): string {
  let s: string;
  if (v === undefined) s = '(absent)';
  else if (typeof v === 'string') s = JSON.stringify(v);
  else if (typeof v === 'bigint') s = v.toString();
  else {
    try {
      s = stringifyJsonLossless(v);
    } catch {
      s = String(v);
    }
  }
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** "POST /runs" from a recorded request, relative to the base URL. */
export function describeRequest(method: string, url: string, baseUrl: string): string {
  let path = url.startsWith(baseUrl) ? url.slice(baseUrl.length) : url;
  if (path === '') path = '/';
  return `${method.toUpperCase()} ${path.split('?')[0]}`;
}
