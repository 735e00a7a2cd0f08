// The exploration's grace after the other checks have ended is what its cap needs at the client's pace
// under the agreed rate, in the spec's time, plus one request time-out; a request that finds the grace
// over is not sent, and the certification says so in a notice naming how many of its requests the
// exploration sent. The grace's start is given (the time the others ended), so no test waits for it or
// bounds its own time.

import { afterEach, describe, expect, it } from 'vitest';
import type { CheckDefinition } from '../src/api-setup/check.js';
import { certify } from '../src/api-setup/certify.js';
import type { ApiResponse } from '../src/http/types.js';
import type { ExploreInputs, TargetInfo } from '../src/api-setup/check.js';
import { S } from '../src/spec/sections.js';
import { exploreGraceMs, onExploreBudget } from '../suites/explore/spare-budget.js';
import { certifyConfig } from './support/certify-config.js';
import { refusingEverything, type LoopbackServer } from './support/loopback-server.js';

const target = (timeScale: number, rateLimit?: number): TargetInfo => ({
  baseUrl: 'http://127.0.0.1:9/v1',
  environment: 'sandbox',
  timeScale,
  embedded: true,
  ...(rateLimit !== undefined ? { rateLimit } : {}),
});

/** Inputs whose other checks ended at `endedAt` (ms since the epoch), recording each cut told. */
function endedAt(endedAtMs: number, requests = 300): { ex: ExploreInputs; cuts: number[] } {
  const stop = new AbortController();
  stop.abort(endedAtMs);
  const cuts: number[] = [];
  return { ex: { requests, seed: 1, stop: stop.signal, onCut: (graceMs) => cuts.push(graceMs) }, cuts };
}

const answered = { status: 422 } as ApiResponse;

describe('the exploration grace', () => {
  it("is the rate windows of the cap at the client's pace, in spec time, plus one request time-out", () => {
    const ex = endedAt(0).ex;
    // 300 requests at 120 a minute: 3 windows of a minute; at time scale 60 a window is 1 s.
    expect(exploreGraceMs(ex, target(60, 120))).toBe(3_000 + 30_000);
    expect(exploreGraceMs(ex, target(1, 120))).toBe(180_000 + 30_000);
    // An agreed limit of 600 a minute needs one window; no --rate-limit is the spec's 120.
    expect(exploreGraceMs(ex, target(1, 600))).toBe(60_000 + 30_000);
    expect(exploreGraceMs(ex, target(1))).toBe(180_000 + 30_000);
    // At the client's pace (nine tenths of the limit: 108 of 120 a window), 1200 requests need 12
    // windows, not the 10 of the limit itself.
    expect(exploreGraceMs(endedAt(0, 1200).ex, target(1, 120))).toBe(720_000 + 30_000);
  });

  it('refuses a request once it is over: nothing is sent and the cut is told', async () => {
    // The others ended at the epoch: every grace is long over.
    const { ex, cuts } = endedAt(0);
    const sent: unknown[] = [];
    const res = await onExploreBudget({ target: target(60, 120) }, ex, 'case 9: x', (opts) => {
      sent.push(opts);
      return Promise.resolve(answered);
    });
    expect(res).toBe('unsent');
    expect(sent).toEqual([]);
    expect(cuts).toEqual([33_000]);
  });

  it('sends within it, on the whole budget (no spare priority), and tells no cut', async () => {
    const { ex, cuts } = endedAt(Date.now());
    const sent: Array<{ priority?: string }> = [];
    const res = await onExploreBudget({ target: target(60, 120) }, ex, 'case 9: x', (opts) => {
      sent.push(opts);
      return Promise.resolve(answered);
    });
    expect(res).toBe(answered);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.priority).toBeUndefined();
    expect(cuts).toEqual([]);
  });
});

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('a certification whose exploration was cut short', () => {
  it('carries the notice explore.cut-short, naming the requests sent of the cap', async () => {
    server = await refusingEverything();
    const other: CheckDefinition = {
      id: 'alpha.other',
      title: 'another check',
      suite: 'alpha',
      spec: [S.errors],
      evidence: 'provoked',
      run: async (t) =>
        void t.expect.that((await t.api.post('/users', {})).status === 422, { message: 'no', spec: S.errors }),
    };
    // One request sent, then one the grace refuses (the others "ended" at the epoch for this request).
    const explored: CheckDefinition = {
      id: 'explore.example.schema-mismatch-answered-4xx',
      title: 'example',
      suite: 'explore',
      spec: [S.errors],
      evidence: 'provoked',
      run: async (t) => {
        const ex = t.inputs.explore!;
        const first = await onExploreBudget(t, { ...ex, stop: undefined }, 'case 1: x', (opts) =>
          t.api.post('/users', { name: 1 }, opts),
        );
        t.expect.that(first !== 'unsent', { message: 'sent', spec: S.errors });
        const late = endedAt(0).ex;
        const second = await onExploreBudget(t, { ...ex, stop: late.stop }, 'case 2: x', (opts) =>
          t.api.post('/users', { name: 2 }, opts),
        );
        t.expect.that(second === 'unsent', { message: 'refused by the grace', spec: S.errors });
      },
    };
    const result = await certify({
      config: certifyConfig({
        baseUrl: server.baseUrl,
        partnerKey: `spk_live_${'ab'.repeat(24)}`,
        environment: 'sandbox',
        explore: 40,
      }),
      checks: [other, explored],
      suiteOrder: ['alpha', 'explore'],
    });
    expect(result.checks.map((c) => [c.id, c.status])).toEqual([
      ['alpha.other', 'passed'],
      ['explore.example.schema-mismatch-answered-4xx', 'passed'],
    ]);
    const notice = result.notices?.find((n) => n.id === 'explore.cut-short');
    expect(notice?.message).toMatch(
      /^the exploration was cut short: it sent 1 of the 40 requests it may send \(--explore 40\); its grace after the other checks ended \(90\.0 s: /,
    );
  });
});
