import { describe, expect, it } from 'vitest';
import { invalidUtf8Offset } from './utf8.js';

const b = (...x: number[]) => Uint8Array.from(x);

describe('invalidUtf8Offset', () => {
  it('accepts valid UTF-8: ASCII, Hebrew, 3- and 4-byte forms', () => {
    expect(invalidUtf8Offset(Buffer.from('{"name":"דנה לוי","x":"€ 😀"}', 'utf8'))).toBeUndefined();
    expect(invalidUtf8Offset(b())).toBeUndefined();
  });

  it('names the offset of a stray byte, a bad continuation, an overlong form, a surrogate, a truncated sequence', () => {
    expect(invalidUtf8Offset(Buffer.concat([Buffer.from('{"n":"ab'), b(0xff), Buffer.from('"}')]))).toBe(8);
    expect(invalidUtf8Offset(b(0x41, 0xc3, 0x41))).toBe(1);
    expect(invalidUtf8Offset(b(0xc0, 0xaf))).toBe(0);
    expect(invalidUtf8Offset(b(0xe0, 0x80, 0xaf))).toBe(0);
    expect(invalidUtf8Offset(b(0xed, 0xa0, 0x80))).toBe(0);
    expect(invalidUtf8Offset(b(0x80))).toBe(0);
    expect(invalidUtf8Offset(b(0x41, 0xe2, 0x82))).toBe(1);
  });

  it('forgives a sequence cut by the end of a truncated body', () => {
    expect(invalidUtf8Offset(b(0x41, 0xe2, 0x82), true)).toBeUndefined();
    expect(invalidUtf8Offset(b(0xff, 0x41), true)).toBe(0);
  });
});
