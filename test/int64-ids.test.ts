// Candidate ids are int64 (Identifier conventions; Limits: "Candidate id size: 64-bit integer"). A
// sandbox whose real-run candidates all have ids above 2^53 (from 2^53 + 1 up, from 2^63 - 1 down) is
// certified by the checks that pick, compare or key candidates of the shared real run: each picks by
// exact digits, and the check that needs locked candidates left alone finds them among those above 2^53
// rather than leaving them all out.

import { describe, expect, it } from 'vitest';
import { certifySandbox } from './support/certify-sandbox.js';

const TWO_POW_53 = 2n ** 53n;
const REVEAL_PATH = /\/runs\/[^/]+\/candidates\/(\d+)\/reveal$/;

/** The candidate ids a check's reveals named, in order. */
function revealedIds(urls: readonly string[]): bigint[] {
  return urls.flatMap((u) => {
    const m = REVEAL_PATH.exec(new URL(u).pathname);
    return m ? [BigInt(m[1]!)] : [];
  });
}

describe('candidate ids above 2^53 are picked and compared exactly', () => {
  it('with every real-run id above 2^53, candidate_revealed is judged on the shared real run, beside the large-id reveal', async () => {
    const ids = [
      'webhooks.candidate-revealed-once',
      'reveal.candidate-id-above-2-53',
      'sandbox.pseudonym-stable-across-runs',
      'decisions.candidate-id-above-2-53',
    ];
    const run = await certifySandbox({ variants: ['ids.candidate-ids-above-2-53'], ids });
    const byId = new Map(run.checks.map((c) => [c.id, c]));
    for (const id of ids) {
      const c = byId.get(id);
      expect(c, id).toBeDefined();
      expect(['passed', 'skipped'], `${id}: ${c?.message}`).toContain(c?.status);
      if (c?.status === 'skipped') expect(c.skipKind, `${id}: ${c.message}`).toBe('not-applicable');
    }
    const once = byId.get('webhooks.candidate-revealed-once')!;
    expect(once.status, once.message).toBe('passed');
    const revealed = revealedIds(once.exchanges.map((e) => e.request.url));
    // The shared real run's candidates, not the fixture's 990000000001…: every id is past 2^53, and the
    // one the large-id check reveals is left to it.
    expect(revealed.length).toBeGreaterThanOrEqual(2);
    for (const id of revealed) expect(id > TWO_POW_53, String(id)).toBe(true);
    const large = revealedIds(byId.get('reveal.candidate-id-above-2-53')!.exchanges.map((e) => e.request.url));
    expect(large).toHaveLength(1);
    expect(revealed).not.toContain(large[0]);
  }, 180_000);
});
