// What text the sandbox takes beyond the JSON types: the one place the explore variants choose it.

import { isRecord, type Json } from './json.js';
import type { VariantSet } from './variants/index.js';

const EMAIL = /^[^\s@]+@[^\s@]+$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
/** Variant explore.lenient-formats: a date-time without an offset, read as UTC. */
const DATE_TIME_NO_OFFSET = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?$/;

/** Whether a recruiter e-mail is taken (variant explore.lenient-formats: any string). */
export function emailTaken(variants: VariantSet, email: string): boolean {
  return EMAIL.test(email) || variants.has('explore.lenient-formats');
}

/** A decision's `occurred_at` as stored, or undefined when refused (variant explore.lenient-formats: no offset is UTC). */
export function occurredAtTaken(variants: VariantSet, at: string): string | undefined {
  if (DATE_TIME.test(at)) return Number.isNaN(Date.parse(at)) ? undefined : at;
  if (variants.has('explore.lenient-formats') && DATE_TIME_NO_OFFSET.test(at)) {
    const utc = `${at}Z`;
    return Number.isNaN(Date.parse(utc)) ? undefined : utc;
  }
  return undefined;
}

/** Text the strict variant refuses: a control character (but tab and line breaks), or past 1,000 characters. */
const REFUSED_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const STRICT_MAX_CHARS = 1000;

function someStringRefused(v: Json): boolean {
  if (typeof v === 'string') return REFUSED_CONTROL.test(v) || [...v].length > STRICT_MAX_CHARS;
  if (Array.isArray(v)) return v.some(someStringRefused);
  if (isRecord(v)) return Object.values(v).some(someStringRefused);
  return false;
}

/** Variant explore.strict-text: whether a request body is refused for its text. */
export function strictTextRefused(variants: VariantSet, body: Json): boolean {
  return variants.has('explore.strict-text') && someStringRefused(body);
}
