// Webhook events the API emits; delivery, signing and retries belong to the queue (src/sandbox/webhooks).
import type { EngineSnapshot, WebhookEnvelope } from './collaborators.js';
import type { AppContext } from './context.js';
import { isoUtc } from './activation.js';
import { newUuid } from './ids.js';
import type { Run } from './store.js';

function envelope(
  app: AppContext,
  run: Pick<Run, 'id' | 'organizationId' | 'jobExternalId'>,
  event: string,
): WebhookEnvelope | undefined {
  const org = app.store.organizations.get(run.organizationId);
  if (!org) return undefined;
  return {
    event_id: newUuid(),
    event,
    run_id: run.id,
    organization_external_id: org.externalId,
    job_external_id: run.jobExternalId,
    occurred_at: isoUtc(app.now()),
  };
}

/** run_completed / run_failed, at most once per run. */
export function emitTerminal(app: AppContext, run: Run, snapshot: EngineSnapshot): void {
  if (run.terminalEmitted || snapshot.status === 'running') return;
  // An embedder still showing the run as running holds the event until it shows the end.
  const hold = app.terminalEventDelayMs?.(run.id);
  if (hold !== undefined && hold > 0) {
    const timer = setTimeout(() => {
      app.timers.delete(timer);
      emitTerminal(app, run, snapshot);
    }, hold);
    timer.unref();
    app.timers.add(timer);
    return;
  }
  run.terminalEmitted = true;
  // Changes the stored webhook queue: cert-webhook's terminal event is never queued.
  if (run.fixture === 'cert-webhook' && app.config.faults.has('webhooks.cert-webhook-not-queued')) return;
  // Changes the stored webhook queue: cert-webhook's completion is queued as run_failed.
  const wrongEvent = run.fixture === 'cert-webhook' && app.config.faults.has('webhooks.cert-webhook-emits-run-failed');
  const env = envelope(app, run, snapshot.status === 'completed' && !wrongEvent ? 'run_completed' : 'run_failed');
  if (!env) return;
  if (env.event === 'run_completed') {
    const p = snapshot.progress;
    // Changes the queued envelope: a real run's progress is one screened off (fixture and test events stay
    // right, so only a check of the real run's own delivery can see it).
    const stale = !run.fixture && app.config.faults.has('webhooks.real-run-progress-stale') ? 1 : 0;
    // Variant webhooks.run-completed-progress-at-emission: counted before the last profile examined.
    const early =
      !run.fixture && app.config.variants.has('webhooks.run-completed-progress-at-emission') && p.screened > p.confirmed
        ? 1
        : 0;
    env.progress = { confirmed: p.confirmed, target: p.target, screened: p.screened + stale - early };
  }
  app.queue.enqueue({ partnerId: run.partnerId, organizationId: run.organizationId, envelope: env });
  // Variant additive.event-name: "receivers ignore but acknowledge unknown events".
  if (snapshot.status === 'completed' && app.config.variants.has('additive.event-name')) {
    app.queue.enqueue({
      partnerId: run.partnerId,
      organizationId: run.organizationId,
      envelope: { ...env, event: 'zz_variant_event', event_id: newUuid() },
      dedupe: false,
    });
  }
  // Changes the stored webhook queue: the terminal event is queued twice.
  if (app.config.faults.has('webhooks.run-event-twice')) {
    app.queue.enqueue({
      partnerId: run.partnerId,
      organizationId: run.organizationId,
      envelope: { ...env, event_id: newUuid() },
      dedupe: false,
    });
  }
}

/** candidate_revealed once per (run, candidate). */
export function emitRevealed(app: AppContext, run: Run, candidateId: bigint): void {
  if (run.revealEvents.has(candidateId)) return;
  run.revealEvents.add(candidateId);
  const env = envelope(app, run, 'candidate_revealed');
  if (!env) return;
  // Changes the queued envelope: the fault writes the id through a double, as a JavaScript client would: above 2^53 it is rounded.
  env.candidate_id =
    !run.fixture && app.config.faults.has('webhooks.real-reveal-candidate-id-rounded')
      ? Number(candidateId)
      : candidateId;
  app.queue.enqueue({ partnerId: run.partnerId, organizationId: run.organizationId, envelope: env });
}

/** The test endpoint's event: a fresh run id that never exists, job `cert-webhook`. */
export function emitTest(
  app: AppContext,
  partnerId: string,
  organizationId: string,
  event: 'run_completed' | 'run_failed' | 'candidate_revealed',
  validSignature: boolean,
): WebhookEnvelope | undefined {
  const env = envelope(app, { id: newUuid(), organizationId, jobExternalId: 'cert-webhook' }, event);
  if (!env) return undefined;
  // Changes the queued test envelope: one event_id per event name, so two test events of a kind look like one event retried.
  if (app.config.faults.has('webhooks.test-event-id-per-name'))
    env.event_id = `00000000-0000-4000-8000-${String(['run_completed', 'run_failed', 'candidate_revealed'].indexOf(event)).padStart(12, '0')}`;
  if (event === 'run_completed') env.progress = { confirmed: 3, target: 3, screened: 40 };
  // Changes the queued test envelope: it names another candidate than the documented test id.
  if (event === 'candidate_revealed')
    env.candidate_id = app.config.faults.has('webhooks.test-payload-wrong-candidate-id')
      ? 990000000002n
      : 990000000001n;
  app.queue.enqueue({ partnerId, organizationId, envelope: env, wrongSignature: !validSignature, dedupe: false });
  return env;
}
