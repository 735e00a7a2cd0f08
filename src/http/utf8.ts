// Where a body stops being UTF-8. Node decodes invalid bytes to U+FFFD without a word, so a body the
// spec requires to be "JSON (UTF-8)" would pass silently; this names the byte offset instead.

/**
 * Offset of the first byte that starts an invalid UTF-8 sequence (overlong forms, surrogates, code
 * points above U+10FFFF and stray continuation bytes included), or undefined when the bytes are valid.
 * With `truncated`, a sequence cut off by the end of the buffer is not an error: the body was cut there.
 */
export function invalidUtf8Offset(bytes: Uint8Array, truncated = false): number | undefined {
  let i = 0;
  // `?? 0` below: every read is inside bytes.length (checked on each line), where a typed array has no hole.
  while (i < bytes.length) {
    const b = bytes[i] ?? 0;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
    else return i;
    if (i + need >= bytes.length) {
      // Cut off by the end: fine only where the body was cut and what is there continues the sequence.
      for (let k = i + 1; k < bytes.length; k++) if (((bytes[k] ?? 0) & 0xc0) !== 0x80) return i;
      return truncated ? undefined : i;
    }
    let cp = b & (0xff >> (need + 2));
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k] ?? 0;
      if ((c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return undefined;
}
