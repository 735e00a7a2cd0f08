// The certifier's temporary webhook receiver. It keeps every delivery (refused ones too, so a check can
// prove a target sent something it should not have): byte for byte up to a bounded head, with the size
// and hash of the whole beyond; verifies the signature over the raw bytes, and can be told to answer
// one delivery badly to observe the target's retries.

import { createHash, randomBytes } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { parseJsonLossless, type JsonValue } from '../json/lossless.js';
import { parseListenAddress, urlHost } from './listen-address.js';
import { verifySignature } from './signature.js';

export interface ReceivedDelivery {
  seq: number;
  receivedAt: number;
  method: string;
  path: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  /**
   * Raw bytes exactly as received; with bodyTruncated, only the first of them: the first maxBodyBytes of
   * one answered 413, the first REFUSED_HEAD_BYTES of any refused one.
   */
  body: Buffer;
  json: JsonValue | undefined;
  signature: { header: string | undefined; valid: boolean; reason?: string };
  answeredStatus: number;
  /**
   * Set when only the body's head is kept: over maxBodyBytes (413, not verified), refused and over
   * REFUSED_HEAD_BYTES, or signed and over SIGNED_HEAD_BYTES.
   */
  bodyTruncated?: boolean;
  /** With bodyTruncated: the size of the whole body as received (up to maxBodyBytes read), and its SHA-256 (hex). */
  bodyBytes?: number;
  bodySha256?: string;
  /** Seq of the delivery whose 3xx Location this request followed: the sender follows redirects. */
  followedRedirectOf?: number;
  /** The plan this delivery was answered with, when one matched. */
  plan?: ResponsePlan;
  /** When the answer was fully written; absent while a slow reply is pending or if the sender left first. */
  answeredAt?: number;
}

export interface ResponsePlan {
  status: number;
  headers?: Record<string, string>;
  delayMs?: number;
  /**
   * While this plan is armed, a valid delivery no plan matches yet waits up to this long for one to
   * match before it is answered 2xx: a plan keyed on an id the trigger's answer carries cannot match a
   * delivery that beats that answer (a fast queue, a slow API).
   */
  holdMs?: number;
}

type PlanPredicate = (d: { headers: Record<string, string>; json: JsonValue | undefined }) => boolean;

export interface WebhookReceiver {
  /** Local URL it listens on, e.g. http://127.0.0.1:41234/hooks/<nonce>. */
  readonly url: string;
  deliveries(): readonly ReceivedDelivery[];
  waitFor(
    predicate: (d: ReceivedDelivery) => boolean,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<ReceivedDelivery | undefined>;
  /**
   * Answer the next validly signed delivery matching `predicate` with `plan` (once): a 500, a 3xx,
   * a slow reply. A 3xx without a Location header gets one pointing back at this receiver.
   */
  /** Returns a function that disarms the plan if it has not been used. */
  planResponse(predicate: PlanPredicate, plan: ResponsePlan): () => void;
  close(): Promise<void>;
}

export interface ReceiverOptions {
  /** host:port, default 127.0.0.1:0. */
  listen?: string;
  secret: string;
  /** PEM contents. */
  tls?: { cert: string; key: string };
  /** Larger bodies are answered 413 without verification; default 1 MiB. */
  maxBodyBytes?: number;
  /**
   * `--webhook-public-url`: the URL the target reaches this receiver at. A planned 3xx points there,
   * so that a target which follows redirects comes back through the same tunnel and is seen doing so.
   */
  publicUrl?: string;
}

const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/**
 * Of a refused delivery (401 signature, 413 size) only the first this many bytes are kept: whoever knows
 * the receiver's URL can post to it, and a flood of unsigned 1 MiB posts once held every byte (68 posts:
 * 2.5 GB). A target's real deliveries are a few hundred bytes, so a check still sees them whole.
 */
export const REFUSED_HEAD_BYTES = 4 * 1024;
/**
 * Of a validly signed delivery, the first this many bytes are kept, with the size and SHA-256 of the
 * whole: a delivery is a small envelope (a notification, not state), and 2,000 signed deliveries of
 * 1 MiB each would hold 2 GB. Its signature is verified over every byte; a larger one is not parsed as
 * JSON (`json` undefined), since the lossless parser takes half a second and some 30 MB for a 1 MiB
 * string: 100 signed 1 MiB posts blocked the event loop the checks share for 50 s and held 3.4 GB.
 */
export const SIGNED_HEAD_BYTES = 64 * 1024;
/**
 * A refused body is parsed as JSON (checks find the target's deliberately mis-signed test event by its
 * event_id) only up to this size: parsing a 1 MiB post of a flooder blocked the event loop that the
 * embedded target and the checks' deadlines share.
 */
const REFUSED_JSON_BYTES = 64 * 1024;
/**
 * At most this many deliveries are kept; past it the oldest refused ones go first (those without an
 * event_id before those with one), then the oldest signed ones. A run receives a few hundred.
 */
export const MAX_KEPT_DELIVERIES = 2_000;
// A sender that keeps streaming far past the limit is cut off rather than drained forever.
const MAX_DRAIN_FACTOR = 16;
const MAX_TIMER_MS = 2 ** 31 - 1;
/** How often a held delivery looks for a plan that now matches it. */
const HOLD_POLL_MS = 10;

interface Waiter {
  predicate: (d: ReceivedDelivery) => boolean;
  resolve: (d: ReceivedDelivery | undefined) => void;
}

interface BodyRead {
  body: Buffer;
  tooLarge: boolean;
}

function readBody(req: IncomingMessage, max: number): Promise<BodyRead> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (tooLarge: boolean) => {
      if (done) return;
      done = true;
      resolve({ body: Buffer.concat(chunks), tooLarge });
    };
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > max) finish(true);
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (done) {
        // Draining the rest so the 413 reaches a sender that is still writing.
        if (size > max * MAX_DRAIN_FACTOR) req.socket.destroy();
        return;
      }
      if (size > max) {
        chunks.push(chunk.subarray(0, chunk.length - (size - max)));
        finish(true);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => finish(false));
    req.on('error', (err) => (done ? undefined : reject(err)));
  });
}

function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function parseJson(body: Buffer): JsonValue | undefined {
  if (body.length === 0) return undefined;
  try {
    return parseJsonLossless(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

function safeTest<T>(predicate: (d: T) => boolean, d: T): boolean {
  try {
    return predicate(d);
  } catch {
    // A check's faulty predicate must not take the receiver down; it simply does not match.
    return false;
  }
}

/** What one receiver holds between requests. */
interface ReceiverState {
  secret: string;
  maxBodyBytes: number;
  /** A marker rather than a fixed path: behind a tunnel the path prefix is the operator's. */
  redirectMarker: string;
  redirectBase: string;
  received: ReceivedDelivery[];
  plans: Array<{ predicate: PlanPredicate; plan: ResponsePlan }>;
  waiters: Set<Waiter>;
  sockets: Set<Socket>;
  timers: Set<NodeJS.Timeout>;
  closed: boolean;
  /** Numbered on arrival: a delivery held by a plan is recorded later, but it came when it came. */
  arrivals: number;
}

function record(st: ReceiverState, d: ReceivedDelivery): void {
  st.received.push(d);
  if (st.received.length > MAX_KEPT_DELIVERIES) forgetOne(st.received);
  for (const w of st.waiters) {
    if (safeTest(w.predicate, d)) {
      st.waiters.delete(w);
      w.resolve(d);
    }
  }
}

/** Drops one kept delivery: the oldest refused one without an event_id, else with one, else the oldest. */
function forgetOne(received: ReceivedDelivery[]): void {
  const refused = (d: ReceivedDelivery): boolean => d.answeredStatus === 401 || d.answeredStatus === 413;
  const hasEvent = (d: ReceivedDelivery): boolean =>
    d.json !== null && typeof d.json === 'object' && !Array.isArray(d.json) && 'event_id' in d.json;
  let i = received.findIndex((d) => refused(d) && !hasEvent(d));
  if (i < 0) i = received.findIndex(refused);
  received.splice(Math.max(i, 0), 1);
}

function takePlan(st: ReceiverState, d: ReceivedDelivery): ResponsePlan | undefined {
  const i = st.plans.findIndex((p) => safeTest(p.predicate, d));
  if (i < 0) return undefined;
  return st.plans.splice(i, 1)[0]?.plan;
}

/** The plan for a valid delivery, waiting while an armed plan holds deliveries no plan matches yet. */
async function awaitPlan(st: ReceiverState, d: ReceivedDelivery): Promise<ResponsePlan | undefined> {
  let plan = takePlan(st, d);
  const holdUntil = d.receivedAt + Math.max(0, ...st.plans.map((p) => p.plan.holdMs ?? 0));
  while (!plan && !st.closed && Date.now() < holdUntil && st.plans.some((p) => (p.plan.holdMs ?? 0) > 0)) {
    await new Promise((resolve) => setTimeout(resolve, HOLD_POLL_MS));
    plan = takePlan(st, d);
  }
  return plan;
}

function send(res: ServerResponse, d: ReceivedDelivery, headers: Record<string, string>, body: string): void {
  res.on('finish', () => {
    d.answeredAt = Date.now();
  });
  res.writeHead(d.answeredStatus, { 'content-type': 'application/json', ...headers });
  res.end(body);
}

/** A delivery as kept: its head, its signature verified over every byte, its JSON when small enough. */
function describeDelivery(
  st: ReceiverState,
  req: IncomingMessage,
  read: BodyRead,
  receivedAt: number,
): ReceivedDelivery {
  const { body, tooLarge } = read;
  const headers = flattenHeaders(req);
  const path = req.url ?? '/';
  const header = headers['x-svc-signature'];
  const markerAt = path.indexOf(st.redirectMarker);
  const followed = markerAt >= 0 ? Number(path.slice(markerAt + st.redirectMarker.length)) : NaN;
  const signature = tooLarge
    ? { header, valid: false, reason: `body over ${st.maxBodyBytes} bytes, not verified` }
    : { header, ...verifySignature(st.secret, body, header) };
  // A delivery keeps its head only (copied: a view would hold the whole buffer), a refused one a short one.
  const refused = !signature.valid;
  const headBytes = refused ? REFUSED_HEAD_BYTES : SIGNED_HEAD_BYTES;
  const kept = body.length > headBytes ? Buffer.from(body.subarray(0, headBytes)) : body;
  return {
    seq: ++st.arrivals,
    receivedAt,
    method: req.method ?? '',
    path,
    headers,
    body: kept,
    json:
      tooLarge || (refused && body.length > REFUSED_JSON_BYTES) || (!refused && body.length > SIGNED_HEAD_BYTES)
        ? undefined
        : parseJson(body),
    signature,
    answeredStatus: 200,
    ...(tooLarge || kept !== body
      ? { bodyTruncated: true, bodyBytes: body.length, bodySha256: createHash('sha256').update(body).digest('hex') }
      : {}),
    ...(Number.isInteger(followed) ? { followedRedirectOf: followed } : {}),
  };
}

/** Answers a delivery a plan matched: its status, a Location back here for a 3xx without one, after its delay. */
function answerWithPlan(st: ReceiverState, res: ServerResponse, d: ReceivedDelivery, plan: ResponsePlan): void {
  d.plan = plan;
  d.answeredStatus = plan.status;
  const planHeaders = { ...plan.headers };
  const isRedirect = plan.status >= 300 && plan.status < 400;
  if (isRedirect && !Object.keys(planHeaders).some((h) => h.toLowerCase() === 'location')) {
    planHeaders.location = `${st.redirectBase}${st.redirectMarker}${d.seq}`;
  }
  record(st, d);
  const answer = () => send(res, d, planHeaders, JSON.stringify({ planned: plan.status }));
  if (!plan.delayMs) return answer();
  const timer = setTimeout(() => {
    st.timers.delete(timer);
    if (!res.destroyed) answer();
  }, plan.delayMs);
  st.timers.add(timer);
}

async function handle(st: ReceiverState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const receivedAt = Date.now();
  const read = await readBody(req, st.maxBodyBytes);
  const d = describeDelivery(st, req, read, receivedAt);
  if (read.tooLarge) {
    d.answeredStatus = 413;
    record(st, d);
    send(res, d, {}, '{"error":"payload_too_large"}');
    return;
  }
  if (!d.signature.valid) {
    // Refused without processing: no plan is consumed by a delivery the target should not have sent.
    d.answeredStatus = 401;
    record(st, d);
    send(res, d, {}, '{"error":"invalid_signature"}');
    return;
  }
  const plan = await awaitPlan(st, d);
  if (plan) return answerWithPlan(st, res, d, plan);
  record(st, d);
  send(res, d, {}, '{"received":true}');
}

function waitForDelivery(
  st: ReceiverState,
  predicate: (d: ReceivedDelivery) => boolean,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<ReceivedDelivery | undefined> {
  const past = st.received.find((d) => safeTest(predicate, d));
  if (past || st.closed || signal?.aborted) return Promise.resolve(past);
  return new Promise((resolve) => {
    const waiter: Waiter = {
      predicate,
      resolve: (d) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve(d);
      },
    };
    const onAbort = () => {
      st.waiters.delete(waiter);
      waiter.resolve(undefined);
    };
    // setTimeout fires at once beyond 2^31-1 ms; a longer wait is capped rather than skipped.
    const timer = setTimeout(onAbort, Math.min(Math.max(timeoutMs, 0), MAX_TIMER_MS));
    signal?.addEventListener('abort', onAbort, { once: true });
    st.waiters.add(waiter);
  });
}

async function closeReceiver(st: ReceiverState, server: Server): Promise<void> {
  if (st.closed) return;
  st.closed = true;
  for (const t of st.timers) clearTimeout(t);
  st.timers.clear();
  for (const w of [...st.waiters]) w.resolve(undefined);
  st.waiters.clear();
  const done = new Promise<void>((resolve) => server.close(() => resolve()));
  for (const s of st.sockets) s.destroy();
  await done;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

export async function startWebhookReceiver(opts: ReceiverOptions): Promise<WebhookReceiver> {
  const { host, port } = parseListenAddress(opts.listen);
  const nonce = randomBytes(6).toString('hex');
  const st: ReceiverState = {
    secret: opts.secret,
    maxBodyBytes: opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    redirectMarker: `/svc-certify-redirect/${nonce}/`,
    redirectBase: '',
    received: [],
    plans: [],
    waiters: new Set(),
    sockets: new Set(),
    timers: new Set(),
    closed: false,
    arrivals: 0,
  };
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    handle(st, req, res).catch(() => {
      // The sender broke the connection mid-body: nothing was received, nothing to answer.
      res.destroy();
    });
  };
  const server: Server = opts.tls
    ? createHttpsServer({ cert: opts.tls.cert, key: opts.tls.key }, onRequest)
    : createHttpServer(onRequest);
  server.on('connection', (socket: Socket) => {
    st.sockets.add(socket);
    socket.on('close', () => st.sockets.delete(socket));
  });
  await listen(server, port, host);
  const address = server.address() as AddressInfo;
  const url = `${opts.tls ? 'https' : 'http'}://${urlHost(host)}:${address.port}/hooks/${nonce}`;
  st.redirectBase = (opts.publicUrl ?? url).replace(/[?#].*$/, '').replace(/\/+$/, '');

  return {
    url,
    deliveries: () => st.received.slice(),
    waitFor: (predicate, timeoutMs, signal) => waitForDelivery(st, predicate, timeoutMs, signal),
    planResponse(predicate, plan) {
      const entry = { predicate, plan };
      st.plans.push(entry);
      return () => {
        const i = st.plans.indexOf(entry);
        if (i >= 0) st.plans.splice(i, 1);
      };
    },
    close: () => closeReceiver(st, server),
  };
}
