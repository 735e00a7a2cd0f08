// candidate_revealed: emitted once per (run, candidate), however often the candidate is revealed.

import type { CheckContext, CheckDefinition } from '../../src/api-setup/check.js';
import { SkipCheck } from '../../src/runner/skip-check.js';
import type { ReceivedDelivery } from '../../src/webhook/receiver.js';
import { S } from '../../src/spec/sections.js';
import { int, obj, objects } from '../support/json-values.js';
import { firstIdAbove2Pow53 } from '../support/large-ids.js';
import {
  DELIVERY_SPEC_MS,
  SETTLE_SPEC_MS,
  eventOf,
  expectWait,
  field,
  runIdOf,
  settle,
  specDuration,
} from '../support/webhook-deliveries.js';
import { sandboxHooks, suite, withReceiver } from './common.js';
import { distinctEvents } from './test-events.js';

/** Locked candidates listed on `runId` (a fresh read), at most two; undefined when the read failed. */
async function lockedOn(
  t: CheckContext,
  runId: string,
  label: string,
  exclude: (id: bigint) => boolean = () => false,
): Promise<bigint[] | undefined> {
  const read = await t.api.get(`/runs/${encodeURIComponent(runId)}`, {
    label: `read the ${label} for locked candidates`,
  });
  if (!t.expect.status(read, 200, S.runsRead)) return undefined;
  return objects(obj(read.json)?.candidates)
    .flatMap((c) => {
      const id = int(c.id);
      return id !== undefined && c.contact_state === 'locked' && !exclude(id) ? [id] : [];
    })
    .slice(0, 2);
}

/**
 * A run and up to two of its candidates whose contact is still locked for the organization: only the
 * locked → revealed move names candidate_revealed (a repeat reveal names no event), and other checks
 * reveal fixture candidates (the same synthetic ids in every fixture run) for the same organization.
 * First the shared real run, whose candidates no other sandbox check reveals but the first above 2^53
 * (reveal.candidate-id-above-2-53 carries it), so no reveal races ours: only that one id is left out,
 * compared exactly (a run whose every id is above 2^53 still offers the others); then a fresh
 * cert-notices-all run; skips when neither lists one.
 */
async function lockedToReveal(t: CheckContext, acting: string): Promise<{ runId: string; ids: bigint[] } | undefined> {
  // A used-up run quota skips the real run; the fixture run below is free of quota.
  const real = await t.setup.realRun().catch((e: unknown) => {
    if (e instanceof SkipCheck) return undefined;
    throw e;
  });
  if (real && objects(obj(real.final.json)?.candidates).length > 0) {
    const spent = firstIdAbove2Pow53(real.final.json);
    const ids = await lockedOn(t, real.run.runId, 'shared real run', (id) => id === spent);
    if (ids === undefined) return undefined;
    if (ids.length > 0) return { runId: real.run.runId, ids };
  }
  const start = await t.setup.startRun(
    { job_external_id: 'cert-notices-all', acting_user_external_id: acting, target_count: 6 },
    { label: 'start a cert-notices-all run to reveal in' },
  );
  if (!t.expect.status(start, 202, S.runsStart)) return undefined;
  const runId = obj(start.json)?.run_id;
  if (typeof runId !== 'string') return void t.skip('the run start named no run_id', 'inconclusive');
  const ids = await lockedOn(t, runId, 'cert-notices-all run');
  if (ids === undefined) return undefined;
  if (ids.length === 0) {
    return void t.skip(
      `neither the shared real run nor a new cert-notices-all run (${runId}) lists a candidate with contact_state locked for this organization; only revealing a locked candidate names a candidate_revealed event`,
      'inconclusive',
    );
  }
  return { runId, ids };
}

export const candidateRevealedOnce: CheckDefinition = {
  id: 'webhooks.candidate-revealed-once',
  title: 'candidate_revealed is emitted once per (run, candidate), even after repeated reveals',
  suite,
  evidence: 'input',
  spec: [S.contactState, S.sandbox, S.events],
  needs: [...sandboxHooks],
  timeoutMs: DELIVERY_SPEC_MS + SETTLE_SPEC_MS + 60_000,
  // Contact state is per organization: a candidate another check reveals meanwhile, in any run of the
  // organization, names no event when this check reveals it. Once every other check has ended, a
  // candidate read as locked stays locked until this check reveals it, on a loaded machine too.
  afterOthers: true,
  run: withReceiver(async (t, rx) => {
    const user = await t.setup.user();
    const source = await lockedToReveal(t, user.externalId);
    if (!source) return;
    const { runId, ids } = source;
    // The first candidate three times, the second once: one event each.
    const reveals = [ids[0]!, ids[0]!, ...ids.slice(1), ids[0]!];
    for (const id of reveals) {
      const res = await t.api.post(
        `/runs/${encodeURIComponent(runId)}/candidates/${id}/reveal`,
        { acting_user_external_id: user.externalId },
        { label: `reveal ${id}` },
      );
      if (!t.expect.status(res, 200, S.reveal)) return;
    }
    const of = (id: bigint) => (d: ReceivedDelivery) =>
      runIdOf(d) === runId && eventOf(d) === 'candidate_revealed' && int(field(d, 'candidate_id')) === id;
    const firsts = await Promise.all(ids.map((id) => rx.waitFor(of(id), expectWait(t, DELIVERY_SPEC_MS), t.signal)));
    if (t.signal.aborted) return;
    await settle(t);
    ids.forEach((id, i) => {
      const times = reveals.filter((r) => r === id).length;
      if (!firsts[i]) {
        t.expect.fail({
          message: `candidate ${id} of run ${runId} was revealed ${times}× but no candidate_revealed reached the receiver within ${specDuration(DELIVERY_SPEC_MS)} of spec time; a reveal queues one`,
          spec: S.sandbox,
        });
        return;
      }
      const all = rx.deliveries().filter(of(id));
      const events = distinctEvents(all);
      t.expect.that(events.length === 1, {
        message: `candidate ${id} of run ${runId}, revealed ${times}×, produced ${events.length} candidate_revealed events (event_ids ${events.join(', ')}); it is emitted once per (run, candidate)`,
        spec: S.contactState,
        expected: 1,
        received: events.length,
      });
    });
  }),
};
