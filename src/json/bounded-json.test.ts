import { describe, expect, it } from 'vitest';
import { boundedJson } from './bounded-json.js';

describe('boundedJson', () => {
  it('writes what JSON.stringify writes', () => {
    for (const v of [
      null,
      1,
      'a"b',
      true,
      [1, undefined, 'x'],
      { a: 1, b: undefined, c: [{}, []] },
      { d: new Date(0) },
    ]) {
      expect(boundedJson(v)).toBe(JSON.stringify(v));
    }
    expect(boundedJson(undefined)).toBeUndefined();
  });

  it('writes a value nested 4,500 levels without a stack overflow, deep containers as markers', () => {
    let deep: unknown = 'core';
    for (let i = 0; i < 4500; i++) deep = i % 2 ? [deep] : { a: deep };
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    const text = boundedJson(deep, { maxDepth: 10 }) ?? '';
    expect(text.length).toBeLessThan(100);
    expect(text).toMatch(/\[…\]|\{…\}/);
    expect((boundedJson(deep, { maxDepth: 10_000 }) ?? '').endsWith('"core"' + '}]'.repeat(2250))).toBe(true);
  });

  it('cuts past maxChars, and takes a leaf writer', () => {
    expect(boundedJson('x'.repeat(100), { maxChars: 10 })).toBe('"xxxxxxxxx…');
    expect(boundedJson({ n: 2n ** 64n }, { leaf: (v) => (typeof v === 'bigint' ? v.toString() : undefined) })).toBe(
      '{"n":18446744073709551616}',
    );
  });
});
