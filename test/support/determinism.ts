// "Deterministic" means the output depends on the RunResult alone. Rendering the same result twice in
// the same instant proves nothing, so this renders it under two different clocks, time zones and
// random sources: a reporter that reads the wall clock, the local zone or Math.random differs.

import { vi } from 'vitest';

interface World {
  now: string;
  tz: string;
  random: number;
}

const WORLDS: [World, World] = [
  { now: '2031-01-02T03:04:05.678Z', tz: 'UTC', random: 0.125 },
  { now: '2044-07-08T21:22:23.456Z', tz: 'Asia/Jerusalem', random: 0.875 },
];

async function inWorld<T>(world: World, render: () => T | Promise<T>): Promise<T> {
  const savedTz = process.env.TZ;
  vi.useFakeTimers({ toFake: ['Date', 'performance'] });
  vi.setSystemTime(new Date(world.now));
  const random = vi.spyOn(Math, 'random').mockReturnValue(world.random);
  process.env.TZ = world.tz;
  try {
    return await render();
  } finally {
    random.mockRestore();
    vi.useRealTimers();
    if (savedTz === undefined) delete process.env.TZ;
    else process.env.TZ = savedTz;
  }
}

/** The two renderings, one per world: equal when the renderer is deterministic. */
export async function renderInTwoWorlds<T>(render: () => T | Promise<T>): Promise<[T, T]> {
  return [await inWorld(WORLDS[0], render), await inWorld(WORLDS[1], render)];
}
