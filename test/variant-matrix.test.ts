// The counterpart of the fault matrix: the reference sandbox with each *conformant* variant on (a choice
// the spec leaves open, or a reading it allows) is certified, and no check may fail it. A check that
// fails a variant blames a conformant server: it is over-constrained and must be fixed, not the variant.
// Checks a variant names in `warns` must end `warning` (the spec reads two ways there), never `failed`.
//
// Kept lean like the fault matrix: one certification per variant at time scale 600 (one exception,
// see OPTIONS), concurrently,
// without --exhaust-limits (the limits checks burn the rate window; the clean run of the fault matrix
// covers them and no variant touches rate limiting).

import { afterAll, describe, expect, it } from 'vitest';
import { listVariants } from '../src/sandbox/index.js';
import type { RunResult } from '../src/runner/results.js';
import { ALL_CHECKS } from '../suites/index.js';
import { certifySandbox, type CertifySandboxOptions } from './support/certify-sandbox.js';

const variants = listVariants();
const checksById = new Map(ALL_CHECKS.map((c) => [c.id, c]));
/** Why a check may be skipped against a sandbox: it is for production, spends, or needs a flag left off here. */
const SKIP_REASONS = new Set(['production', 'spend-credits', 'no-webhook-registered', 'exhaust-limits']);
const failedBy = new Map<string, string[]>();
/**
 * Some variants are certified with options of their own. Two show only at a lower time scale, so they
 * are certified there, on the suite they concern:
 * a delivery 90 s late is a few ms at 600, below what a busy machine's latency can tell apart (at 8 it is
 * 11.25 s, past the 10 s real-time floor under which a delivery is never called late); and at
 * 600 the shared real run may be over before its first read, which would never see it running.
 */
const OPTIONS: Record<string, CertifySandboxOptions> = {
  'webhooks.first-delivery-after-90s': { timeScale: 8, suites: ['webhooks'] },
  'additive.run-status': { timeScale: 60, suites: ['runs-read'] },
  // A run that outlasts the 30 minutes of polling: every check that waits for its end would skip
  // (inconclusive), so only those judging a running run are certified, the duration check among them.
  'runs-read.real-run-outlasts-polling': {
    ids: [
      'runs-read.real-run-ends-within-30-minutes',
      'runs-read.run-schema',
      'runs-read.progress-monotonic',
      'runs-read.progress-consistent',
    ],
  },
  // Real runs that stay running 35 minutes, 5 past the 30 minutes of polling: the whole catalogue, at 60,
  // where those 5 minutes are 5 s (at 600 half a second, less than a busy machine's latency).
  'runs-read.real-run-running-35-minutes': { timeScale: 60 },
  // A choice about bursts over the rate limit: only the limits checks see it (time scale 10, as the fault matrix's).
  'sandbox.simulated-answer-over-limit': { exhaustLimits: true, timeScale: 10, suites: ['limits'] },
  // The operator's switch is known to the certifier only from the user: --real-names-enabled.
  'sandbox.real-names-enabled': { flags: { realNamesEnabled: true } },
  // How a second partner's key with the first partner's org token is refused: only that check sends the pair.
  'auth.other-partner-token-403': { suites: ['auth'] },
  // The ninth attempt comes about 8 h of spec time after the first: 7.4 s at 6000, the one check that watches.
  'webhooks.eight-retries-after-first': {
    timeScale: 6000,
    ids: ['webhooks.retry-schedule-whole'],
    flags: { watchRetries: true },
  },
  'auth.other-partner-token-404': { suites: ['auth'] },
};

/**
 * Certified alone, after the others: with four other certifications in the same process, this variant's
 * sandbox was seen to hold every webhook delivery past its wait (test events, cert-webhook, the real
 * run's), while alone it passes every time. The interaction is not explained yet; the row still proves
 * the variant certified, and the closing note of the change that added this says what is open.
 */
const ALONE = new Set(['additive.event-name']);

/** A variant of production mode (what a reveal charges) is certified as production, with credits to spend. */
function optionsFor(v: (typeof variants)[number]): CertifySandboxOptions {
  if (v.mode !== 'production') return OPTIONS[v.id] ?? {};
  return { mode: 'production', flags: { environment: 'production', maxSpendCredits: '100' }, ...OPTIONS[v.id] };
}

function problems(run: RunResult, warns: readonly string[]): string[] {
  const out: string[] = [];
  // Against production, the sandbox's checks skip for the stated reason; against the sandbox, production's.
  const skippable = run.target.environment === 'production' ? new Set([...SKIP_REASONS, 'sandbox']) : SKIP_REASONS;
  for (const c of run.checks) {
    if (c.status === 'failed' || c.status === 'error') out.push(`${c.status} ${c.id}: ${c.message}`);
    // A check may skip only where it cannot apply (its kind says so) or for an input this run withholds.
    const allowedSkip =
      c.skipKind === 'not-applicable' || (checksById.get(c.id)?.needs ?? []).some((n) => skippable.has(n));
    if (c.status === 'skipped' && !allowedSkip) out.push(`skipped ${c.id}: ${c.message}`);
    if (warns.includes(c.id) && c.status !== 'warning')
      out.push(`${c.id} should warn with this variant, ended ${c.status}: ${c.message}`);
  }
  return out;
}

describe('every conformant variant of the sandbox is certified without a failure', () => {
  it('has at least 12 variants, each saying which words of the spec allow it', () => {
    expect(variants.length).toBeGreaterThanOrEqual(12);
    for (const v of variants) expect(v.allowedBy, v.id).not.toBe('');
    for (const v of variants)
      for (const id of v.warns ?? []) expect(checksById.has(id), `${v.id} warns ${id}`).toBe(true);
  });

  // A whole catalogue at time scale 60 (real runs of 35 spec-minutes) takes about a minute on two busy
  // cores: the time-out of a row is a bound on a stuck certification, not a speed requirement.
  const certifyRow = async (id: string, warns: readonly string[], v: (typeof variants)[number]): Promise<void> => {
    const run = await certifySandbox({ variants: [id], ...optionsFor(v) });
    const found = problems(run, warns);
    if (found.length > 0) failedBy.set(id, found);
    expect(run.target.environment).toBe(v.mode ?? 'sandbox');
    expect(found).toEqual([]);
  };
  const row = (v: (typeof variants)[number]) => [v.id, v.warns ?? [], v] as const;
  it.concurrent.each(variants.filter((v) => !ALONE.has(v.id)).map(row))('%s', certifyRow, 180_000);
  // After the concurrent rows, one at a time (see ALONE).
  it.each(variants.filter((v) => ALONE.has(v.id)).map(row))('%s (alone)', certifyRow, 180_000);

  afterAll(() => {
    process.stdout.write(
      `\nvariant matrix: ${variants.length - failedBy.size}/${variants.length} conformant variants certified without a failure\n`,
    );
    for (const [id, list] of failedBy) process.stdout.write(`  ${id}: ${list.join(' | ')}\n`);
  });
});
