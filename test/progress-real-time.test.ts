// Progress of a long wait counts what a person waits: real time, with spec time beside it when scaled.

import { describe, expect, it } from 'vitest';
import { certifySandbox } from './support/certify-sandbox.js';

describe('cert-slow progress', () => {
  it('shows real time left (spec time beside it), not spec time as if it were real', async () => {
    const lines: string[] = [];
    const run = await certifySandbox({
      ids: ['fixtures.cert-slow.runs-three-minutes-then-completes'],
      timeScale: 60,
      reporters: [{ onCheckProgress: (_id, message) => void lines.push(message) }],
    });
    expect(run.checks[0]!.status).toBe('passed');
    expect(lines.length).toBeGreaterThan(0);
    // At time scale 60 the 3 minutes take 3 s: at most 0:03 of real time is ever left.
    for (const line of lines)
      expect(line).toMatch(/^cert-slow: \d+\/\d+ confirmed, 0:0[0-3] left \(\d:\d\d of spec time\)$/);
  }, 60_000);
});
