// The bounds of src/runner/limits.ts at work: observations counted past the cap, large answers kept
// as text, values rendered without serializing them whole.

import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '../http/types.js';
import { parseJsonLossless } from '../json/lossless.js';
import { lazyJson } from './lazy-json.js';
import { LAZY_JSON_ABOVE_CHARS, MAX_OBSERVATIONS_PER_CHECK, RENDERED_VALUE_CHARS } from './limits.js';
import { ObservationOverflow } from './observation-overflow.js';
import { renderValue } from './render.js';

describe('observations past the cap', () => {
  it('are counted in one last observation that fails when any of them failed', () => {
    const overflow = new ObservationOverflow();
    overflow.add({ message: 'w', spec: 'Errors', severity: 'warning' });
    overflow.add({ message: 'f', spec: 'Errors' });
    const more = overflow.observation(MAX_OBSERVATIONS_PER_CHECK)!;
    expect(more.severity).toBeUndefined();
    expect(more.message).toBe(
      `+2 more observations (of which 1 failures) not kept: ${MAX_OBSERVATIONS_PER_CHECK + 2} in all, a check keeps its first ${MAX_OBSERVATIONS_PER_CHECK}`,
    );
    const warnings = new ObservationOverflow();
    warnings.add({ message: 'w', spec: 'Errors', severity: 'warning' });
    expect(warnings.observation(MAX_OBSERVATIONS_PER_CHECK)!.severity).toBe('warning');
    expect(new ObservationOverflow().observation(3)).toBeUndefined();
  });
});

describe('a large answer', () => {
  const response = (text: string): ApiResponse => ({
    status: 200,
    headers: {},
    text,
    json: parseJsonLossless(text),
    exchange: {} as ApiResponse['exchange'],
  });

  it('is not parsed once the certification is interrupted, and gives its JSON before', () => {
    const ITEMS = Math.ceil(LAZY_JSON_ABOVE_CHARS / 3) + 1;
    const text = `{"candidates":[${Array.from({ length: ITEMS }, () => '{}').join(',')}]}`;
    const stop = new AbortController();
    const lazy = lazyJson({ ...response(text), large: true }, stop.signal);
    expect((lazy.json as { candidates: unknown[] }).candidates).toHaveLength(ITEMS);
    expect(lazy.text).toBe(text);
    stop.abort();
    expect(() => lazy.json).toThrow(/interrupted/);
  });

  it('a small answer is left as it is', () => {
    const res = response('{"a":1}');
    expect(lazyJson(res, new AbortController().signal)).toBe(res);
  });
});

describe('renderValue', () => {
  it(`renders a million-item array as its first ${RENDERED_VALUE_CHARS} characters without serializing it whole`, () => {
    // Counts the items read: serializing the whole array reads every one of them.
    let itemsRead = 0;
    const items = new Proxy(
      Array.from({ length: 1_000_000 }, (_, i) => ({ i })),
      {
        get(target, key, receiver) {
          if (typeof key === 'string' && /^\d+$/.test(key)) itemsRead += 1;
          return Reflect.get(target, key, receiver) as unknown;
        },
      },
    );
    const text = renderValue(items);
    // About 240 / 8 characters of items fit; the rest of the million are never touched.
    expect(itemsRead).toBeLessThan(100);
    expect(text).toHaveLength(RENDERED_VALUE_CHARS);
    expect(text.startsWith('[{"i":0},{"i":1},')).toBe(true);
    expect(text.endsWith('…')).toBe(true);
    expect(renderValue({ a: [1, 2n, 'x'], b: null })).toBe('{"a":[1,2,"x"],"b":null}');
  });
});
