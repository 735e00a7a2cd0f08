// "Timestamps are ISO 8601 in UTC", judged as a warning where a value is not in RFC 3339 form.

import type { ApiResponse } from '../../src/http/types.js';
import type { JsonValue } from '../../src/json/lossless.js';
import type { CheckContext } from '../../src/api-setup/check.js';
import type { SpecSection } from '../../src/spec/section-names.js';
import { isRfc3339UtcDateTime, isUtcDateTime } from '../../src/schema/formats.js';

/**
 * "Timestamps are ISO 8601 in UTC": a value in either ISO 8601 format (extended or basic) passes; one
 * that is not in RFC 3339 form (extended, with seconds, Z or +00:00), which is what clients' date-time
 * parsers expect, warns. Only a string that is a UTC date-time is judged here: whether it is one is the
 * caller's assertion (a schema or its own). Returns whether it was in RFC 3339 form.
 */
export function warnUnlessRfc3339(
  t: CheckContext,
  value: JsonValue | undefined,
  what: string,
  spec: SpecSection,
  res?: ApiResponse,
): boolean {
  if (typeof value !== 'string' || !isUtcDateTime(value)) return true;
  return t.expect.warn(
    isRfc3339UtcDateTime(value),
    {
      message: `${what} ${JSON.stringify(value)} is ISO 8601 in UTC but not in RFC 3339 form (e.g. 2025-01-01T10:00:00Z)`,
      spec,
      expected: 'YYYY-MM-DDTHH:MM:SS[.fff](Z|+00:00)',
      received: value,
      reading:
        'clients parse timestamps with RFC 3339 / ISO 8601 extended-format parsers (Date.parse, datetime.fromisoformat), which refuse the basic format and other ISO 8601 spellings',
      otherReading:
        'the spec says only "Timestamps are ISO 8601 in UTC", and ISO 8601 allows the basic format (20250101T100000Z), omitted seconds and the designators +00 and +0000',
    },
    res,
  );
}
