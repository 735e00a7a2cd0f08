import { describe, expect, it } from 'vitest';
import { collectGarbage } from './memory-valve.js';

describe('memory valve', () => {
  it('runs a full collection without --expose-gc: garbage no longer reached is gone at once', () => {
    let garbage: number[][] | undefined = Array.from({ length: 200 }, () =>
      Array.from({ length: 50_000 }, (_, i) => i + 0.5),
    );
    const held = process.memoryUsage().heapUsed;
    expect(garbage.length).toBe(200);
    garbage = undefined;
    collectGarbage();
    // 200 × 50,000 doubles is about 80 MB; a lazy collector would still hold most of it.
    expect(held - process.memoryUsage().heapUsed).toBeGreaterThan(40 * 1024 * 1024);
  });
});
