import { describe, expect, it } from 'vitest';
import { isJsonUtf8, parseMediaType } from './media-type.js';

describe('application/json; charset=utf-8 in its RFC 9110-equivalent forms', () => {
  it.each([
    'application/json; charset=utf-8',
    'application/json;charset=utf-8',
    'application/json;charset="UTF-8"',
    'Application/JSON; Charset=UTF-8',
    'application/json ; charset=utf-8',
    'application/json;\tcharset="utf\\-8"',
  ])('accepts %s', (ct) => expect(isJsonUtf8(ct)).toBe(true));
  it.each([
    undefined,
    '',
    'application/json',
    'text/json; charset=utf-8',
    'application/json; charset=latin1',
    'application/json; charset=utf-8; charset=utf-8',
    'application/json; charset=utf-8; x=1',
    'application/json; charset=',
    'application/json, charset=utf-8',
    'application/jsonx; charset=utf-8',
  ])('refuses %s', (ct) => expect(isJsonUtf8(ct)).toBe(false));
  it('parses quoted values with escapes', () => {
    expect(parseMediaType('a/b; x="y\\"z"; Q=1')).toEqual({ type: 'a/b', params: { x: 'y"z', q: '1' } });
  });
});
