import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'suites/**/*.test.ts', 'test/**/*.test.ts'],
    // Real sockets and real timers: a slow CI core must not turn a pass into a time-out.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
