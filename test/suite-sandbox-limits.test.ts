// The sandbox, production and limits suites against the embedded reference sandbox: every check
// passes where it applies (sandbox mode, a production-mode sandbox, --exhaust-limits), is skipped with
// its reason elsewhere. That each fault makes the check meant for it fail is the fault matrix's
// (test/fault-matrix.test.ts), on the check's own assertion.

import { describe, expect, it, vi } from 'vitest';
import { createPacer } from '../src/http/pacer.js';
import type { CheckDefinition } from '../src/api-setup/check.js';
import { LIMITS_CHECKS } from '../suites/limits.js';
import { PRODUCTION_CHECKS } from '../suites/production.js';
import { SANDBOX_CHECKS } from '../suites/sandbox.js';
import { certifySandbox, notPassed, resultOf, type CertifySandboxOptions } from './support/certify-sandbox.js';

const ids = (checks: readonly CheckDefinition[]): string[] => checks.map((c) => c.id);
const SANDBOX_IDS = ids(SANDBOX_CHECKS);
const PRODUCTION_IDS = ids(PRODUCTION_CHECKS);
const LIMITS_IDS = ids(LIMITS_CHECKS);
const RATE_CHECK = 'limits.rate-limit-429';
const QUOTA_CHECK = 'limits.sandbox-run-quota';

/** A production-mode sandbox, declared production: a leaked x-svc-environment must not hide the checks. */
const PRODUCTION: CertifySandboxOptions = { mode: 'production', flags: { environment: 'production' } };
/** The limits fast: a 1-second "minute" and a partner limit a burst passes at once. */
const LIMITS: CertifySandboxOptions = { exhaustLimits: true, timeScale: 60, rateLimit: 30 };

describe('sandbox, production and limits suites', () => {
  it('a partner with a limit raised by agreement above 1,000 per minute, stated with --rate-limit, is judged at its limit', async () => {
    // 1,200 per minute: beyond the 1,000 requests a burst sent before it followed --rate-limit. At time
    // scale 2 the window is 30 s, so the burst needs only some 40 requests a second.
    const run = await certifySandbox({ ids: [RATE_CHECK], exhaustLimits: true, timeScale: 2, rateLimit: 1200 });
    const r = resultOf(run, RATE_CHECK);
    expect(r.status, r.message).toBe('passed');
  });

  it('pass against the clean sandbox; production checks skip, limits skip without --exhaust-limits', async () => {
    const run = await certifySandbox({ ids: [...SANDBOX_IDS, ...PRODUCTION_IDS, ...LIMITS_IDS] });
    expect(notPassed(run).filter((l) => !l.startsWith('skipped'))).toEqual([]);
    for (const id of SANDBOX_IDS) expect(resultOf(run, id).status, id).toBe('passed');
    for (const id of PRODUCTION_IDS) expect(resultOf(run, id).message, id).toMatch(/applies to production only/);
    for (const id of LIMITS_IDS) expect(resultOf(run, id).message, id).toMatch(/--exhaust-limits/);
  });

  it('production checks pass against a production-mode sandbox, where sandbox checks skip', async () => {
    const run = await certifySandbox({ ...PRODUCTION, ids: [...PRODUCTION_IDS, ...SANDBOX_IDS] });
    expect(notPassed(run).filter((l) => !l.startsWith('skipped'))).toEqual([]);
    for (const id of PRODUCTION_IDS) expect(resultOf(run, id).status, id).toBe('passed');
    for (const id of SANDBOX_IDS) expect(resultOf(run, id).message, id).toMatch(/applies to the sandbox only/);
  });

  // Apart: a burst over the partner's rate would refuse the other check's requests too.
  it.each([RATE_CHECK, QUOTA_CHECK])('%s passes with --exhaust-limits', async (id) => {
    const run = await certifySandbox({ ...LIMITS, ids: [id] });
    expect(notPassed(run)).toEqual([]);
    const exchanges = resultOf(run, id).exchanges;
    if (id === RATE_CHECK) expect(exchanges.some((e) => e.response?.status === 429)).toBe(true);
    else expect(exchanges.filter((e) => e.response?.status === 202).length).toBe(21); // 20 real + 1 fixture
  });
});

describe('unpaced requests (Pacer.burst, for limits.rate-limit-429)', () => {
  it('wait for paced requests in flight, hold new ones back, and still count for a window', async () => {
    // The pacer's clock and timers are fake: what must not happen is shown not to after a minute of its
    // time, and the window is measured on its own clock, not on the machine's.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const pacer = createPacer({ ratePerMinute: 10, windowMs: 150, margin: 1 });
      const order: string[] = [];
      const paced = await pacer.hold();
      const burst = pacer.burst().then((release) => (order.push('burst'), release));
      await vi.advanceTimersByTimeAsync(60_000);
      expect(order).toEqual([]); // a paced request is still in flight, however long it takes
      paced();
      const releases = await Promise.all([burst, ...Array.from({ length: 11 }, () => pacer.burst())]);
      const later = pacer.hold().then((release) => (order.push('paced'), release));
      await vi.advanceTimersByTimeAsync(60_000);
      expect(order).toEqual(['burst']); // no paced request while the burst is in flight
      for (const release of releases) release();
      // Twelve burst slots over a budget of ten: the paced request waits the whole window for them to
      // leave it, and goes soon after (the pacer's timer fires a millisecond past the window's end).
      await vi.advanceTimersByTimeAsync(150);
      expect(order).toEqual(['burst']);
      await vi.advanceTimersByTimeAsync(10);
      expect(order).toEqual(['burst', 'paced']);
      (await later)();
    } finally {
      vi.useRealTimers();
    }
  });
});
