// Checks judged on the outcomes real runs happen to have (short, failed, blocked, progress screened):
// where no run had the outcome there is nothing to judge.

import type { JsonValue } from '../../src/json/lossless.js';
import type { CheckContext, CheckDefinition } from '../../src/api-setup/check.js';
import { S } from '../../src/spec/sections.js';
import { int, obj, objects } from '../support/json-values.js';
import { show, someOf } from '../support/messages.js';
import { REAL_RUN_BUDGET_MS } from '../support/runs.js';
import {
  eachRead,
  everyReadCheck,
  expectNoDecrease,
  journalReads,
  progressOf,
  type Read,
  readAgain,
  realRun,
  requestBody,
  suite,
  TERMINAL,
  where,
} from './real-runs.js';

/** How long the short-run check waits for the short real run to end: the 30 minutes clients poll a run. */
const SHORT_RUN_END_SPEC_MS = 30 * 60_000;
/** Without a webhook of its end, the short real run is read this often while it runs. */
const SHORT_RUN_END_READ_EVERY_SPEC_MS = 30_000;
/** With a receiver, how long its run_completed / run_failed is awaited once the first real run has ended. */
const SHORT_RUN_DELIVERY_GRACE_SPEC_MS = 5 * 60_000;

function endsRun(runId: string): (d: { json: JsonValue | undefined }) => boolean {
  return (d) => {
    const b = obj(d.json);
    return b?.run_id === runId && (b.event === 'run_completed' || b.event === 'run_failed');
  };
}

/**
 * The short real run (started by shared setup, not followed) read once it has ended: it starts with the
 * first, so once the first has ended its run_completed / run_failed delivery is awaited (no request),
 * then it is read, and read again every 30 s while it still runs, up to 30 minutes after its start.
 * Undefined after a failed read.
 */
async function shortRunAtEnd(t: CheckContext): Promise<{ read: Read; target: number | undefined } | undefined> {
  const second = await t.setup.shortRealRun();
  const started = Date.now();
  const target = int(requestBody(second.start)?.target_count);
  await realRun(t);
  const scale = t.target.timeScale;
  // Everything ends by 30 minutes after the second run's start, within the check's budget.
  const deadline = started + SHORT_RUN_END_SPEC_MS / scale;
  const rx = t.webhooks?.receiver;
  if (rx) {
    const grace = Math.min(SHORT_RUN_DELIVERY_GRACE_SPEC_MS / scale, deadline - Date.now());
    await rx.waitFor(endsRun(second.runId), grace, t.signal);
  }
  for (let n = 1; ; n++) {
    const read = await readAgain(t, second.runId, `read the short real run (#${n})`);
    if (!read) return undefined;
    const done = typeof read.run.status === 'string' && TERMINAL.has(read.run.status);
    if (done || t.signal.aborted || Date.now() >= deadline)
      return { read, target: target === undefined ? undefined : Number(target) };
    await t.sleep(SHORT_RUN_END_READ_EVERY_SPEC_MS);
  }
}

/**
 * Judged on the real runs the certification reads to their end. A run short of its target, a failed
 * run, a requirement_blockers notice: each arises from the service's own outcome, so a certification
 * where none arose has nothing to judge (not applicable), whatever it arranged to provoke them.
 */
export const RUN_OUTCOME_CHECKS: CheckDefinition[] = [
  {
    id: 'runs-read.short-run-explained-by-notice',
    title:
      'A real run that completes with fewer candidates than its target_count carries at least one notice (notices say why)',
    suite,
    evidence: 'conditional',
    notApplicableWhen: 'every real run read filled its target: no run ended short to be explained',
    spec: [S.runStatus, S.run, S.notice],
    needs: ['org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      // The first run's last read, and the short run (target 20, narrow musts: arranged to be short).
      // Both asked for at once, so the short run starts with the first, not after it.
      const [first, short] = await Promise.all([realRun(t), shortRunAtEnd(t)]);
      if (!short) return;
      const ended: Array<{ r: Read; target: number | undefined; which: string }> = [
        { r: short.read, target: short.target, which: 'the short real run' },
      ];
      const last = first.reads[first.reads.length - 1];
      if (last) ended.unshift({ r: last, target: first.targetCount, which: 'the shared real run' });
      const shortOnes = ended.filter(
        (e) =>
          e.r.run.status === 'completed' && e.target !== undefined && objects(e.r.run.candidates).length < e.target,
      );
      if (shortOnes.length === 0) {
        t.skip(
          `no real run completed short of its target: ${ended.map((e) => `${e.which} read ${show(e.r.run.status)} with ${objects(e.r.run.candidates).length} of ${e.target ?? '?'} candidates`).join('; ')} (the short run asks for 20 with narrow musts to provoke it); how many candidates a run finds is the service's own outcome`,
          'not-applicable',
        );
        return;
      }
      for (const e of shortOnes) {
        const listed = objects(e.r.run.candidates).length;
        t.expect.that(
          objects(e.r.run.notices).length > 0,
          {
            message: `${e.which} completed with ${listed} of its target_count ${e.target} candidates and no notice; a run may stop short of its target, "and notices say why"`,
            spec: S.runStatus,
            expected: 'at least one notice',
            received: show(e.r.run.notices ?? null),
            pointer: '/notices',
          },
          e.r.res,
        );
      }
    },
  },
  {
    id: 'runs-read.failed-run-explained-by-notice',
    title:
      'A failed run (cert-failed in the sandbox, any real run that failed) carries at least one notice that explains it, function_error or another',
    suite,
    evidence: 'provoked',
    spec: [S.runStatus, S.run, S.notice],
    needs: ['org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      const reads: Array<{ r: Read; which: string }> = [];
      if (t.target.environment === 'sandbox') {
        const { runId } = await t.setup.fixtureRun('cert-failed');
        const r = await readAgain(t, runId, 'read cert-failed');
        if (!r) return;
        reads.push({ r, which: 'the cert-failed run' });
      }
      for (const r of (await realRun(t)).reads) reads.push({ r, which: `${where(r)} of the shared real run` });
      const failed = reads.filter((x) => x.r.run.status === 'failed');
      if (failed.length === 0) {
        // A real run fails only by the service's doing; cert-failed not failing is the fixtures suite's finding.
        t.skip(
          t.target.environment === 'sandbox'
            ? 'neither cert-failed nor the shared real run read failed, so no failed run could be judged'
            : 'no run read during the certification failed (a production run cannot be made to fail), so no failed run could be judged',
          t.target.environment === 'sandbox' ? 'inconclusive' : 'not-applicable',
        );
        return;
      }
      eachRead(
        failed.map((x) => x.r),
        (r) => {
          const which = failed.find((x) => x.r === r)?.which ?? where(r);
          return t.expect.that(
            objects(r.run.notices).length > 0,
            {
              message: `${which} reads failed with no notice; when a run fails "a notice (typically function_error, slot empty_state) explains"`,
              spec: S.runStatus,
              expected: 'at least one notice',
              received: show(r.run.notices ?? null),
              pointer: '/notices',
            },
            r.res,
          );
        },
      );
    },
  },
  {
    id: 'runs-read.requirement-blockers-on-requirement',
    title:
      'requirement_blockers on a real run (provoked with narrow musts on the short real run), whenever it appears, is in slot on_requirement',
    suite,
    evidence: 'conditional',
    notApplicableWhen:
      'no real run read carried a requirement_blockers notice, not even the short real run with its narrow musts',
    spec: [S.notice],
    needs: ['org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    // After the others: every read of the short real run they made is judged, with no request of its own.
    afterOthers: true,
    async run(t) {
      // The short real run's musts (French, React, the title) are arranged to block: the notice's slot is
      // stated, when it appears is the service's own outcome (its meaning is not shown).
      const v = await realRun(t);
      const short = await t.setup.shortRealRun();
      let shortReads = journalReads(t, short.runId);
      if (shortReads.length === 0) {
        const r = await readAgain(t, short.runId, 'read the short real run');
        if (r) shortReads = [r];
      }
      const reads = [
        ...v.reads.map((r) => ({ r, which: `${where(r)} of the shared real run` })),
        ...shortReads.map((r) => ({ r, which: `${where(r)} of the short real run` })),
      ];
      const seen = reads.filter((x) => objects(x.r.run.notices).some((n) => n.code === 'requirement_blockers'));
      if (seen.length === 0) {
        t.skip(
          `no read of the shared real run (${v.reads.length}) nor of the short real run (${shortReads.length}) showed requirement_blockers; whether a run shows it is the service's own outcome`,
          'not-applicable',
        );
        return;
      }
      for (const { r, which } of seen) {
        const misplaced = objects(r.run.notices).filter(
          (n) => n.code === 'requirement_blockers' && n.slot !== 'on_requirement',
        );
        const ok = t.expect.that(
          misplaced.length === 0,
          {
            message: `${which} places requirement_blockers in slot ${someOf(misplaced, (n) => show(n.slot))}; the spec gives requirement_blockers the slot on_requirement`,
            spec: S.notice,
            expected: 'on_requirement',
            received: someOf(misplaced, (n) => show(n.slot)),
            pointer: '/notices',
          },
          r.res,
        );
        if (!ok) return;
      }
    },
  },
  everyReadCheck(
    {
      id: 'runs-read.screened-never-decreases',
      title:
        'progress.screened (candidates examined so far) never decreases over every read of the run any check made, in order',
      spec: [S.run],
    },
    async (t, reads) => {
      if (reads.filter((r) => progressOf(r.run).screened !== undefined).length < 2) {
        t.skip(
          'fewer than two reads of the shared real run carried an integer progress.screened (runs-read.run-schema reports it), so nothing could be compared',
          'inconclusive',
        );
        return;
      }
      expectNoDecrease(t, 'screened', 'the candidates examined so far', reads);
    },
    // Two reads of its own after the end: a counter that goes down on every other read shows between them
    // even when this check is the only one that read the run after the setup.
    2,
  ),
];
