import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../src/json/lossless.js';
import { objects } from './json-values.js';

describe('objects', () => {
  it('is the array itself when every item is an object, and the objects only otherwise', () => {
    const all: JsonValue[] = [{ a: 1 }, {}];
    expect(objects(all)).toBe(all);
    expect(objects([{ a: 1 }, 2, null, 'x'])).toEqual([{ a: 1 }]);
    expect(objects(undefined)).toEqual([]);
  });
});
