// Judging a counter over every read of a run: a read below any read known to come before it is a
// decrease, wherever the two reads came from; two reads in flight together are not ordered.

import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '../../src/http/types.js';
import type { JsonObject } from '../../src/json/lossless.js';
import { firstDecrease, progressOf, type Read } from './real-runs.js';

function read(n: number, screened: number, sent: number, answered: number, label = `read ${n}`): Read {
  const run = { progress: { screened: BigInt(screened) } } as unknown as JsonObject;
  const res = { exchange: { label } } as unknown as ApiResponse;
  return { res, run, n, sent, answered };
}
const screened = (r: Read): bigint | undefined => progressOf(r.run).screened;

describe('firstDecrease', () => {
  it('finds a drop between reads of different checks (18, 29, 37 by the setup, then 34 by a check)', () => {
    const reads = [read(1, 18, 1, 2, 'setup'), read(2, 29, 3, 4), read(3, 37, 5, 6), read(4, 34, 7, 8, 'a check')];
    const drop = firstDecrease(reads, screened);
    expect(drop?.prev.value).toBe(37n);
    expect(drop?.now.value).toBe(34n);
    expect(drop?.now.r.n).toBe(4);
  });

  it('compares a read with the highest read before it, not only the one just before', () => {
    // 40 (read 1), then 35 and 36 by two other checks: 36 is above 35 but below 40.
    const reads = [read(1, 40, 1, 2), read(2, 35, 3, 4), read(3, 36, 5, 6)];
    expect(firstDecrease(reads, screened)?.now.r.n).toBe(2);
  });

  it('does not order two reads in flight together: neither was answered before the other was sent', () => {
    // Sent 1 and 2, answered 4 and 3: the service may have served either first.
    const reads = [read(1, 10, 2, 3), read(2, 12, 1, 4)];
    expect(firstDecrease(reads, screened)).toBeUndefined();
  });

  it('finds nothing when the counter never goes down', () => {
    const reads = [read(1, 1, 1, 2), read(2, 1, 3, 4), read(3, 5, 5, 6)];
    expect(firstDecrease(reads, screened)).toBeUndefined();
  });
});
