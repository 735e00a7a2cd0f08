import { describe, expect, it } from 'vitest';
import { JsonTooDeep, parseJsonDeep, TOO_DEEP_TO_JUDGE } from './deep-parse.js';
import { parseJsonLossless } from './lossless.js';

const SAME_AS_LOSSLESS = [
  '0',
  '-1.50',
  '9007199254740993',
  '"a\\u0041\\n"',
  ' [ 1 , 2 , [ ] , { } ] ',
  '{"a":1,"b":{"c":[true,false,null]},"d":"x"}',
  '{"a":1,"a":1}',
  '{"a":[1,2],"a":[1,2]}',
  '{"__proto__":{"x":1}}',
  '[9.90000000001e11, 1e5, -0]',
];

const REFUSED = [
  '',
  '[1,]',
  '{"a":1,"a":2}',
  '{"a" 1}',
  '[1 2]',
  '01',
  '"\u0001"',
  '[',
  '{"a":1',
  'nul',
  '[1]x',
  "{'a':1}",
];

describe('parseJsonDeep', () => {
  it.each(SAME_AS_LOSSLESS)('parses %s to the value lossless-json gives', (text) => {
    expect(parseJsonDeep(text)).toEqual(parseJsonLossless(text));
  });

  it.each(REFUSED)('refuses %j as lossless-json does', (text) => {
    expect(() => parseJsonLossless(text)).toThrow();
    expect(() => parseJsonDeep(text)).toThrow(SyntaxError);
  });

  it('parses a valid text nested 20,000 levels, where lossless-json runs out of stack', () => {
    const text = `{"error":${'['.repeat(20_000)}"core"${']'.repeat(20_000)},"n":9007199254740993}`;
    expect(() => parseJsonLossless(text)).toThrow(RangeError);
    const value = parseJsonDeep(text) as { error: unknown; n: unknown };
    let depth = 0;
    for (let v: unknown = value.error; Array.isArray(v); v = v[0]) depth++;
    expect(depth).toBe(20_000);
    expect(value.n).toBe(9007199254740993n);
  });

  it('says a text nested past its bound is too deep to judge, never that it is not JSON', () => {
    const text = `${'['.repeat(101)}${']'.repeat(101)}`;
    expect(() => parseJsonDeep(text, 100)).toThrow(JsonTooDeep);
    expect(() => parseJsonDeep(text, 100)).toThrow(TOO_DEEP_TO_JUDGE);
    expect(parseJsonDeep(text, 101)).toBeDefined();
  });
});
