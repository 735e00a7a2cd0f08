import { randomBytes, randomUUID } from 'node:crypto';
import { serializeBody } from './json-body.js';
import { buildOutgoing } from './outgoing.js';
import { postOnce, type PostHandle, type PostResult } from './post-once.js';
import { ACK_TIMEOUT_MS, faultyRetryDelay, RETENTION_MS, retryDelay } from './schedule.js';
import type { WebhookAttempt, WebhookEnvelope, WebhookQueue, WebhookQueueOptions } from './types.js';
import { checkWebhookUrl } from './url-policy.js';
import { SPEC_DELIVERY, type DeliveryPolicy } from '../faults/delivery-policy.js';

interface Item {
  partnerId: string;
  organizationId: string;
  envelope: WebhookEnvelope;
  wrongSignature: boolean;
  attemptsMade: number;
  occurredMs: number;
  state: 'scheduled' | 'sending' | 'paused' | 'finished';
  timer: NodeJS.Timeout | null;
  /** The embedder was asked whether to send it again once delivered (it is asked once). */
  redeliveryAsked: boolean;
}

function dedupeKey(envelope: WebhookEnvelope): string | null {
  if (envelope.event === 'run_completed' || envelope.event === 'run_failed') return `run\u0000${envelope.run_id}`;
  if (envelope.event === 'candidate_revealed')
    return `revealed\u0000${envelope.run_id}\u0000${serializeKey(envelope.candidate_id)}`;
  return null;
}

/** The id as JSON text, so a bigint, a number and a raw int64 token of the same id dedupe together. */
function serializeKey(value: unknown): string {
  return Buffer.from(serializeBody(value ?? null)).toString('utf8');
}

// A time-scaled 10 s (16 ms at 600x) is shorter than a busy loopback receiver takes to answer: the
// answer would be lost and the attempt retried, hiding what the receiver said. Never below this.
const MIN_ACK_TIMEOUT_MS = 2_000;

function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname;
  return host === 'localhost' || host === '[::1]' || /^127\./.test(host);
}

/** What one delivery attempt needs of its queue: the options, the policy, and where attempts are recorded. */
interface Sender {
  opts: WebhookQueueOptions;
  policy: DeliveryPolicy;
  scale: number;
  variants: ReadonlySet<string>;
  wrongSecret: string;
  inflight: Set<{ handle: PostHandle; done: Promise<void> }>;
  history: WebhookAttempt[];
  isClosed: () => boolean;
}

/** Sends one attempt of `item` to `url` (following a redirect only under a fault) and records it. */
async function sendAttempt(q: Sender, url: string, item: Item, secret: string): Promise<PostResult> {
  const { opts, policy, scale, variants, wrongSecret, inflight, history } = q;
  const points = opts.points;
  const out = buildOutgoing({
    envelope: item.envelope,
    attempt: item.attemptsMade,
    secret,
    wrongSecret,
    wrongSignature: item.wrongSignature,
    sandboxHeader: opts.sandboxHeader,
    points,
    variants,
  });
  const ackTimeoutMs =
    policy.ackWait === 'one-minute'
      ? 60_000
      : (opts.ackTimeoutMs ?? Math.max(ACK_TIMEOUT_MS / scale, MIN_ACK_TIMEOUT_MS));
  const startedAt = Date.now();
  const post = (to: string) => {
    const handle = postOnce(to, out.headers, out.body, {
      timeoutMs: ackTimeoutMs,
      insecureTls: opts.allowLoopback && isLoopbackUrl(to),
    });
    const entry = { handle, done: handle.result.then(() => undefined) };
    inflight.add(entry);
    return handle.result.finally(() => inflight.delete(entry));
  };
  let result = await post(url);
  if (
    policy.followsRedirects &&
    result.status !== null &&
    result.status >= 300 &&
    result.status < 400 &&
    result.location &&
    !q.isClosed()
  ) {
    result = await post(new URL(result.location, url).toString());
  }
  const answeredAt = Date.now();
  history.push({
    eventId: out.eventId,
    attempt: item.attemptsMade,
    url,
    status: result.status,
    ...(result.error ? { error: result.error } : {}),
    at: answeredAt,
  });
  opts.onAttempt?.({
    kind: 'webhook-attempt',
    eventId: out.eventId,
    event: item.envelope.event,
    runId: item.envelope.run_id,
    attempt: item.attemptsMade,
    url,
    wrongSignature: item.wrongSignature,
    status: result.status,
    ...(result.error ? { error: result.error } : {}),
    ...(result.location ? { location: result.location } : {}),
    startedAt,
    answeredAt,
    ackTimeoutMs,
  });
  return result;
}

/**
 * Variants: a first attempt after 45 s is within "usually within a minute"; after 90 s it is not usual, but
 * the spec makes no promise (the certifier warns).
 */
function firstDeliveryDelayMs(variants: ReadonlySet<string>, scale: number): number {
  if (variants.has('webhooks.first-delivery-after-90s')) return 90_000 / scale;
  if (variants.has('webhooks.first-delivery-after-45s')) return 45_000 / scale;
  return 0;
}

/**
 * After an attempt that was not acknowledged: the delay (in the spec's time) before the next attempt, or
 * why the event is not sent again.
 */
function retryDecision(
  item: Item,
  status: number | null,
  policy: DeliveryPolicy,
  variants: ReadonlySet<string>,
): { retryAfterMs: number } | { finished: string } {
  if (item.wrongSignature && !policy.retriesBadSignatureTest)
    return { finished: 'bad-signature test sent once, not retried' };
  if (!policy.retriesAfterServerError && status !== null && status >= 500) return { finished: 'given up' };
  const delay =
    policy.backoff === 'spec'
      ? retryDelay(
          item.attemptsMade,
          variants.has('webhooks.eight-retries-after-first') ? 'eight-retries' : 'eight-in-all',
        )
      : faultyRetryDelay(item.attemptsMade, policy.backoff);
  if (delay === null) return { finished: `dropped after ${item.attemptsMade} attempts` };
  return { retryAfterMs: delay };
}

/**
 * Whether an event is emitted for the first time: a repeat of its dedupe key (the same event of the same
 * subject) is not queued again. Remembers the key.
 */
function firstEmission(seen: Set<string>, envelope: WebhookEnvelope, dedupe: boolean): boolean {
  const key = dedupe ? dedupeKey(envelope) : null;
  if (key === null) return true;
  if (seen.has(key)) return false;
  seen.add(key);
  return true;
}

/**
 * After an acknowledged attempt: at least once, an embedder may have a delivered event sent again (as a lost
 * acknowledgement would), once per event; the bad-signature test never is.
 */
function redeliveryAfterMs(opts: WebhookQueueOptions, item: Item): number | undefined {
  if (item.wrongSignature || item.redeliveryAsked) return undefined;
  item.redeliveryAsked = true;
  const { event_id: eventId, event, run_id: runId } = item.envelope;
  return opts.redeliverAfterMs?.({ eventId, event, runId });
}

/** The envelopes an emission queues: the event, and (the fault changing the stored queue) a reveal's copy. */
function envelopesQueued(envelope: WebhookEnvelope, faults: WebhookQueueOptions['faults']): WebhookEnvelope[] {
  // Changes the stored queue: a reveal's event is queued twice, under two event ids.
  if (faults.has('webhooks.duplicate-candidate-revealed') && envelope.event === 'candidate_revealed')
    return [envelope, { ...envelope, event_id: randomUUID() }];
  return [envelope];
}

/** How long until the event is dropped, 7 days (scaled) after it occurred. */
const msUntilDropped = (item: Item, scale: number) => item.occurredMs + RETENTION_MS / scale - Date.now();

const describe = (item: Item) => `${item.envelope.event} ${item.envelope.event_id}`;

/** After an attempt: when the event is sent again (scaled), or why it is finished. */
function nextAfterAttempt(
  opts: WebhookQueueOptions,
  item: Item,
  status: number | null,
  policy: DeliveryPolicy,
  scale: number,
): { afterMs: number } | { finished: string } {
  if (status !== null && status >= 200 && status < 300) {
    const again = redeliveryAfterMs(opts, item);
    return again === undefined ? { finished: 'delivered' } : { afterMs: again };
  }
  const next = retryDecision(item, status, policy, opts.variants ?? new Set<string>());
  return 'finished' in next ? next : { afterMs: next.retryAfterMs / scale };
}

/** Aborts the attempts in flight and waits for them to settle. */
async function abortInflight(inflight: Set<{ handle: PostHandle; done: Promise<void> }>): Promise<void> {
  const pending = [...inflight];
  for (const entry of pending) entry.handle.abort();
  await Promise.all(pending.map((e) => e.done));
}

/** A newly queued event, before its first attempt; its age counts from when it occurred. */
function newItem(fields: Pick<Item, 'partnerId' | 'organizationId' | 'envelope' | 'wrongSignature'>): Item {
  const parsed = Date.parse(fields.envelope.occurred_at);
  const occurredMs = Number.isNaN(parsed) ? Date.now() : parsed;
  return { ...fields, attemptsMade: 0, occurredMs, state: 'scheduled', timer: null, redeliveryAsked: false };
}

/** Where an event is sent now, or why it waits (no webhook, a disabled partner or organization, a refused URL). */
function deliveryTarget(opts: WebhookQueueOptions, item: Item): { url: string; secret: string } | { waiting: string } {
  const target = opts.target(item.partnerId);
  if (!target) return { waiting: 'no webhook configured' };
  if (opts.paused(item.partnerId, item.organizationId)) return { waiting: 'partner or organization disabled' };
  const verdict = checkWebhookUrl(target.url, { allowLoopback: opts.allowLoopback });
  return verdict.ok ? target : { waiting: `URL refused: ${verdict.reason}` };
}

/** Replaces the item's timer (unref'd: a pending delivery never keeps the process alive). */
function setItemTimer(item: Item, run: () => void, delayMs: number): void {
  if (item.timer) clearTimeout(item.timer);
  item.timer = setTimeout(run, Math.max(0, delayMs));
  item.timer.unref();
}

/**
 * The webhook delivery queue (spec: Events, delivery rules; Limits). Times are the spec's divided by
 * `timeScale`: ack time-out 10 s, retries after 1, 2, 5, 15, 30, 60, 120 min (8 attempts in all; a variant adds
 * the ninth after 240 min), retention 7 days.
 * Every timer is unref'd and cleared by close().
 */
export function createWebhookQueue(opts: WebhookQueueOptions): WebhookQueue {
  const scale = opts.timeScale > 0 ? opts.timeScale : 1;
  const policy = opts.points.deliveryPolicy(SPEC_DELIVERY, {});
  const variants = opts.variants ?? new Set<string>();
  const firstDelayMs = firstDeliveryDelayMs(variants, scale);
  const log = opts.log ?? (() => {});
  // Deliberately wrong, and never the real secret: the bad-signature test must fail verification.
  const wrongSecret = `wrong-${randomBytes(16).toString('hex')}`;
  const items = new Set<Item>();
  const seen = new Set<string>();
  const history: WebhookAttempt[] = [];
  const inflight = new Set<{ handle: PostHandle; done: Promise<void> }>();
  let closed = false;
  const finish = (item: Item, why: string) => {
    item.state = 'finished';
    if (item.timer) clearTimeout(item.timer);
    item.timer = null;
    items.delete(item);
    log(`webhook ${describe(item)} ${why}`);
  };

  const schedule = (item: Item, delayMs: number) => {
    if (closed) return;
    item.state = 'scheduled';
    setItemTimer(item, () => void process(item), delayMs);
  };

  const pause = (item: Item, reason: string) => {
    if (item.state !== 'paused') log(`webhook ${describe(item)} waiting: ${reason}`);
    item.state = 'paused';
    // A paused event is still dropped on time, even if nobody wakes the queue.
    setItemTimer(item, () => finish(item, 'dropped: unsent 7 days after it occurred'), msUntilDropped(item, scale));
  };

  const sender: Sender = { opts, policy, scale, variants, wrongSecret, inflight, history, isClosed: () => closed };

  const process = async (item: Item): Promise<void> => {
    if (closed || item.state === 'finished' || item.state === 'sending') return;
    item.timer = null;
    if (msUntilDropped(item, scale) <= 0) return finish(item, 'dropped: unsent 7 days after it occurred');
    const target = deliveryTarget(opts, item);
    if ('waiting' in target) return pause(item, target.waiting);
    item.state = 'sending';
    item.attemptsMade += 1;
    const result = await sendAttempt(sender, target.url, item, target.secret);
    log(`webhook ${describe(item)} attempt ${item.attemptsMade} -> ${result.status ?? result.error ?? 'no answer'}`);
    if (closed) return;
    const next = nextAfterAttempt(opts, item, result.status, policy, scale);
    if ('finished' in next) return finish(item, next.finished);
    schedule(item, next.afterMs);
  };

  return {
    enqueue({ partnerId, organizationId, envelope, wrongSignature = false, dedupe = true }) {
      if (closed) return;
      if (!firstEmission(seen, envelope, dedupe)) {
        log(`webhook ${envelope.event} ${envelope.event_id} not queued: already emitted`);
        return;
      }
      for (const env of envelopesQueued(envelope, opts.faults)) {
        const item = newItem({ partnerId, organizationId, envelope: env, wrongSignature });
        items.add(item);
        schedule(item, firstDelayMs);
      }
    },

    wake() {
      for (const item of items) if (item.state === 'paused') schedule(item, 0);
    },

    attempts: () => history.slice(),

    async close() {
      closed = true;
      for (const item of items) if (item.timer) clearTimeout(item.timer);
      items.clear();
      await abortInflight(inflight);
    },
  };
}
