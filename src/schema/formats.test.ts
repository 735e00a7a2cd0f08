import { describe, expect, it } from 'vitest';
import { isRfc3339UtcDateTime, isUtcDateTime } from './formats.js';

describe('UTC date-time (ISO 8601) and its RFC 3339 form', () => {
  it('accepts the ISO 8601 basic format, which is not RFC 3339 form', () => {
    for (const value of [
      '20250101T100000Z',
      '20250101T1000Z',
      '20250101T100000.123Z',
      '20250101T100000,5Z',
      '20250101T100000+0000',
      '20250101T100000+00',
      '20240229T235960Z',
    ]) {
      expect(isUtcDateTime(value), value).toBe(true);
      expect(isRfc3339UtcDateTime(value), value).toBe(false);
    }
  });

  it('refuses a basic format with another offset, an impossible date or time, or lower case', () => {
    for (const value of [
      '20250101T100000+0200',
      '20250101T100000-0000',
      '20250230T100000Z',
      '20250101T240000Z',
      '20250101t100000Z',
      '20250101T100000',
      '2025010T100000Z',
      '20250101T10Z',
    ]) {
      expect(isUtcDateTime(value), value).toBe(false);
    }
  });

  it('calls RFC 3339 form only the extended format with seconds and Z or +00:00', () => {
    for (const value of ['2025-01-01T10:00:00Z', '2025-01-01T10:00:00.123Z', '2025-01-01T10:00:00+00:00'])
      expect(isRfc3339UtcDateTime(value), value).toBe(true);
    for (const value of [
      '2025-01-01T10:00Z',
      '2025-01-01T10:00:00+0000',
      '2025-01-01T10:00:00+00',
      '2025-01-01T10:00:00,5Z',
      '2025-01-01T10:00:00+02:00',
    ]) {
      expect(isRfc3339UtcDateTime(value), value).toBe(false);
    }
  });
});
