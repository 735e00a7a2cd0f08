import type { Ajv2020 } from 'ajv/dist/2020.js';

// String formats of the spec beyond ajv-formats' defaults.
//
// The spec says "Timestamps are ISO 8601 in UTC". ajv-formats' date-time accepts any offset and a
// lower-case "t"/"z" (RFC 3339), so UTC is a format of its own: an ISO 8601 calendar date and time of
// day joined by "T", minutes required, seconds (with an optional fraction) optional, and a UTC
// designator in any ISO 8601 spelling: "Z", "+00", "+0000" or "+00:00". Both ISO 8601 formats of date
// and time are accepted: extended ("2025-01-01T10:00:00Z") and basic ("20250101T100000Z"); the UTC
// designator is taken in either spelling with both (leniently: a strict reading wants one format
// throughout, and nothing here is failed for that). Other offsets, "-00:00" (RFC 3339's "unknown offset",
// which ISO 8601 forbids), lower-case letters and a space separator are refused.
//
// What clients parse is RFC 3339's profile (extended format, seconds, "Z" or "+00:00"): a value that is
// ISO 8601 UTC but not in that form is conformant, and a check warns about it (isRfc3339UtcDateTime).

const UTC_EXTENDED = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(?:Z|\+00(?::?00)?)$/;
const UTC_BASIC = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(?:(\d{2})(?:[.,]\d+)?)?(?:Z|\+00(?::?00)?)$/;
/** RFC 3339 section 5.6 date-time in UTC, upper-case: the form clients' date-time parsers expect. */
const RFC3339_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|\+00:00)$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/** An ISO 8601 date and time of day in UTC, in extended or basic format (see above). */
export function isUtcDateTime(value: string): boolean {
  const m = UTC_EXTENDED.exec(value) ?? UTC_BASIC.exec(value);
  if (!m) return false;
  // Both patterns capture five fields (absent groups read NaN and fail every comparison below).
  const [year = NaN, month = NaN, day = NaN, hour = NaN, minute = NaN] = m.slice(1, 6).map(Number);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  const maxDay = month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1];
  if (maxDay === undefined) return false; // the month is not 1-12
  if (day < 1 || day > maxDay) return false;
  if (hour > 23 || minute > 59) return false;
  // A leap second can only be the last second of a UTC day.
  return second <= 59 || (second === 60 && hour === 23 && minute === 59);
}

/** A UTC date-time (isUtcDateTime) written in RFC 3339 form: extended format, seconds, "Z" or "+00:00". */
export function isRfc3339UtcDateTime(value: string): boolean {
  return RFC3339_UTC.test(value) && isUtcDateTime(value);
}

/** Canonical 8-4-4-4-12 hex, either case. ajv-formats' uuid also takes a "urn:uuid:" prefix, which is no id for a URL path. */
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** Registers `utc-date-time` and replaces `uuid`; call after ajv-formats so the override wins. */
export function addSpecFormats(ajv: Ajv2020): void {
  ajv.addFormat('utc-date-time', { type: 'string', validate: isUtcDateTime });
  ajv.addFormat('uuid', { type: 'string', validate: UUID });
}
