import { describe, expect, it } from 'vitest';
import { parseJsonLossless, type JsonValue } from '../../src/json/lossless.js';
import { int, objects } from './json-values.js';
import { firstIdAbove2Pow53 } from './large-ids.js';

describe('objects', () => {
  it('is the array itself when every item is an object, and the objects only otherwise', () => {
    const all: JsonValue[] = [{ a: 1 }, {}];
    expect(objects(all)).toBe(all);
    expect(objects([{ a: 1 }, 2, null, 'x'])).toEqual([{ a: 1 }]);
    expect(objects(undefined)).toEqual([]);
  });
});

describe('candidate ids near 2^53 and at 2^63 - 1', () => {
  // 2^53 - 1 is the last integer a double holds; 2^53 + 1 and 2^63 - 1 are not, and 2^53 + 1 reads as
  // 2^53 through one: each must come through exactly.
  const text =
    '{"candidates":[{"id":9007199254740991},{"id":9007199254740993},{"id":9223372036854775807},{"id":9007199254740992}]}';
  const run = parseJsonLossless(text);
  const ids = objects((run as { candidates: JsonValue }).candidates).map((c) => int(c.id));

  it('reads each id as its exact integer', () => {
    expect(ids).toEqual([2n ** 53n - 1n, 2n ** 53n + 1n, 2n ** 63n - 1n, 2n ** 53n]);
    expect(new Set(ids).size).toBe(4);
  });

  it('picks the first id above 2^53 (the one the large-id checks spend), not its rounded neighbour', () => {
    expect(firstIdAbove2Pow53(run)).toBe(2n ** 53n + 1n);
    expect(firstIdAbove2Pow53(parseJsonLossless('{"candidates":[{"id":9007199254740991}]}'))).toBeUndefined();
    expect(firstIdAbove2Pow53(undefined)).toBeUndefined();
  });
});
