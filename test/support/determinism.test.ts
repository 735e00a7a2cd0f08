import { describe, expect, it } from 'vitest';
import { renderInTwoWorlds } from './determinism.js';

// The determinism tests of the reporters are only worth something if this helper tells a renderer that
// reads its surroundings apart from one that does not.
// The real clock and random source, captured before any world is entered.
const REAL_DATE = globalThis.Date;
const REAL_RANDOM = Math.random;
const REAL_TZ = process.env.TZ;

describe('renderInTwoWorlds', () => {
  it('gives different renderings to a renderer that reads the clock, the zone or Math.random', async () => {
    for (const render of [
      () => new Date().toISOString(),
      () => String(performance.now() + Date.now()),
      () => new Date(0).toString(),
      () => String(Math.random()),
    ]) {
      const [a, b] = await renderInTwoWorlds(render);
      expect(a).not.toBe(b);
    }
  });

  it('gives equal renderings to a pure renderer and restores the real clock', async () => {
    const [a, b] = await renderInTwoWorlds(() => JSON.stringify({ at: '2026-01-01T00:00:00Z' }));
    expect(a).toBe(b);
    // Restored means the very objects of before, not a date that merely looks plausible today.
    expect(globalThis.Date).toBe(REAL_DATE);
    expect(Math.random).toBe(REAL_RANDOM);
    expect(process.env.TZ).toBe(REAL_TZ);
    expect([2031, 2044]).not.toContain(new Date().getUTCFullYear());
  });
});
