import { describe, expect, it } from 'vitest';
import { JsonDecimal, isInt64, parseJsonExactIntegers, parseJsonLossless, stringifyJsonLossless } from './lossless.js';

describe('lossless JSON', () => {
  it('keeps integers above 2^53 exact and round-trips them as integer tokens', () => {
    const text = '{"id":9007199254740993,"small":42}';
    const value = parseJsonLossless(text) as Record<string, unknown>;
    expect(value.id).toBe(9007199254740993n);
    expect(value.small).toBe(42);
    expect(stringifyJsonLossless(value)).toBe(text);
  });

  it('keeps fraction and exponent tokens apart from integers', () => {
    const value = parseJsonLossless('[990000000001.0, 9.90000000001e11, 1]') as unknown[];
    expect(value[0]).toBeInstanceOf(JsonDecimal);
    expect((value[1] as JsonDecimal).raw).toBe('9.90000000001e11');
    expect(isInt64(value[0])).toBe(false);
    expect(isInt64(value[2])).toBe(true);
    expect(isInt64(2n ** 63n)).toBe(false);
  });

  it('refuses malformed JSON', () => {
    expect(() => parseJsonLossless('{"a":')).toThrow(SyntaxError);
  });

  it('reads ids near 2^53 and up to 2^63 - 1 exactly, and other numbers as JSON.parse does', () => {
    const text = '[9007199254740991, 9007199254740992, 9007199254740993, 9223372036854775807, 1.5, 2e3, -0]';
    const value = parseJsonExactIntegers(text) as unknown[];
    expect(value).toEqual([9007199254740991, 9007199254740992n, 9007199254740993n, 2n ** 63n - 1n, 1.5, 2000, -0]);
    // Two neighbours above 2^53 stay two values (JSON.parse makes them one).
    expect(value[1]).not.toBe(value[2]);
    expect(JSON.parse('[9007199254740992, 9007199254740993]')).toEqual([9007199254740992, 9007199254740992]);
  });
});
