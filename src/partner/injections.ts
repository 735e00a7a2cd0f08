// The failures the spec names, injected at documented points so that the partner's retry rules become
// observable (docs/partner.md; the points are listed in docs/reference/checks.md). Each fires once per
// session; `--no-inject` turns all off.
// Plain policy over request data: the CLI plugs it into the sandbox's generic hooks.

import { matchWireEndpoint, type EndpointName } from '../api/endpoints.js';
import { isJsonObject, parseJsonLossless, stringifyJsonLossless, type JsonObject } from '../json/lossless.js';
import { INJECTION_POINTS } from './injection-points.js';
// A read this long (spec time) after a delivery for its run began is prompted by it: the rules' own measure.
import { PROMPTED_BY_WEBHOOK_MS } from './rules/runs.js';
import type { InjectionId } from './traffic.js';

export { INJECTION_POINTS } from './injection-points.js';

/** The held run reads `running` this long (spec time): past the 30-minute polling limit, long enough for a poller that ignores it to show. */
const HELD_RUNNING_MS = 35 * 60_000;

/**
 * How long (spec time, and at least the real floor) the held run waits at its natural end for a first read
 * before it lets go: a loaded machine delays a poller's first read by seconds, minutes of spec time.
 */
const RELEASE_GRACE_MS = 5 * 60_000;
const RELEASE_GRACE_FLOOR_MS = 5_000;

/** What the sandbox hooks hand over (structurally the sandbox's HookRequest). */
export interface InjectableRequest {
  id: number;
  method: string;
  path: string;
  /** Header names in lower case (the org token of a revoked organization is looked for here). */
  headers?: Record<string, string | string[] | undefined>;
  body?: Buffer;
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export type SimulateAnswer = {
  simulate: 'rate_limited' | 'rate_limit_unavailable' | 'internal_error';
  retryAfterSeconds?: number;
};

export interface Injector {
  /** At the sandbox's simulate point: an answer instead of executing, or undefined. */
  simulate(req: InjectableRequest): SimulateAnswer | undefined;
  /** After execution: send the answer, drop it, or send another. */
  deliver(req: InjectableRequest, res: Answer): 'send' | 'drop' | { replace: Answer };
  /** The injection that answered request `id`, if any. */
  injectedFor(id: number): InjectionId | undefined;
  /** Injection points that have fired so far. */
  fired(): InjectionId[];
  /** How long (real ms) the terminal webhook of `runId` is held back: the held run's, while its reads say running. */
  terminalEventDelayMs(runId: string): number | undefined;
  /** A valid webhook delivery for `runId` began at `at` (epoch ms): a read soon after it is prompted by it. */
  delivered(runId: string, at: number): void;
  /**
   * Whether org-token-revoked still waits for the one customer's other duties to be judged (the session
   * then re-judges and calls `dutiesJudged`); false once it fired, is off, or was told.
   */
  awaitsDutiesJudged(): boolean;
  /** Every other duty is judged: the next call with the first customer's token is refused (org-token-revoked). */
  dutiesJudged(): void;
  /** After a valid delivery acknowledged 2xx: real ms until it is delivered again (event-delivered-twice), or undefined. */
  redeliverAfterMs(delivered: { eventId: string; event: string; runId: string }): number | undefined;
}

/** The fixture whose run_completed is delivered twice: the one the spec names for webhooks, queued at its start. */
const REDELIVERED_FIXTURE = 'cert-webhook';
/**
 * How long (spec time, and at least the real floor) after the acknowledged delivery the same event comes
 * again: the first retry's pause; the floor lets a loaded machine's client finish acting on the first.
 */
const REDELIVERY_AFTER_MS = 60_000;
const REDELIVERY_FLOOR_MS = 2_000;

/**
 * The fixture whose first start answers the injected 500: the failed-run fixture, whose loss costs the
 * session nothing (no rule needs its run, and a client shows the error where it would show the failure).
 */
const RUN_START_500_FIXTURE = 'cert-failed';

/** The org token a request carries, if any. */
function orgTokenOf(req: InjectableRequest): string | undefined {
  const v = req.headers?.['x-svc-org'];
  const token = Array.isArray(v) ? v[0] : v;
  return token === undefined || token.trim() === '' ? undefined : token.trim();
}

const json = (status: number, body: Record<string, unknown>): Answer => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: Buffer.from(JSON.stringify(body), 'utf8'),
});

/**
 * The injected 402: the sandbox never answers 402 (Sandbox behaviour: "never 402"), so the message says
 * that this one is the certifier's, on purpose, and what a client does with it in production.
 */
const INJECTED_402 = json(402, {
  error: 'insufficient_credits',
  message:
    'injected on purpose by svc-certify partner (the sandbox never answers 402; production does when the organization lacks credits): nothing was revealed; show the balance and the price, do not retry',
  balance: 0,
  required: 10,
});

/** The injected 401: the operator revoked the organization's token (Authentication 8). */
const INJECTED_401 = json(401, {
  error: 'invalid_org_token',
  message:
    'injected by svc-certify partner: this organization token was revoked, as the service operator would revoke it; renew the customer connection with a new activation code',
});

/** The endpoint of the table a request is for (undefined for any other), and the run its path names. */
function addressOf(req: InjectableRequest): { endpoint?: EndpointName; runId?: string } {
  const m = matchWireEndpoint(req.method, req.path);
  if (!m) return {};
  return { endpoint: m.name, ...('run_id' in m.params ? { runId: m.params.run_id } : {}) };
}

/** A field of a body that is a JSON object (undefined for any other body, or none). */
function fieldOf(body: Buffer | undefined, name: string): unknown {
  if (!body) return undefined;
  try {
    const v: unknown = JSON.parse(body.toString('utf8'));
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>)[name] : undefined;
  } catch {
    return undefined;
  }
}

const jobExternalId = (body: Buffer | undefined): unknown => fieldOf(body, 'job_external_id');

/** How many decisions a decisions body carries (0 when it is no JSON object with a list). */
function decisionCount(body: Buffer | undefined): number {
  const list = fieldOf(body, 'decisions');
  return Array.isArray(list) ? list.length : 0;
}

/** A run read's body as a JSON object, read losslessly so that a rewrite keeps int64 candidate ids exact. */
function runReadOf(body: Buffer): JsonObject | undefined {
  try {
    const v = parseJsonLossless(body.toString('utf8'));
    return isJsonObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** The run read with another `status`. */
function withStatus(read: JsonObject, status: string): Buffer {
  return Buffer.from(stringifyJsonLossless({ ...read, status }), 'utf8');
}

/** The status of an unknown run status (Versioning 3: treated as `running`). */
const UNKNOWN_RUN_STATUS = 'zz_certification_status';
/** An error code no client can know (Versioning 2: handled by its HTTP status). */
const UNKNOWN_ERROR_CODE = 'zz_new_error';

function runIdOf(body: Buffer): string | undefined {
  const id = fieldOf(body, 'run_id');
  return typeof id === 'string' ? id : undefined;
}

/** `Retry-After` of the injected 429: the spec's 30 s divided by the time scale, rounded up, at least 1. */
export function injectedRetryAfter(timeScale: number): number {
  return Math.max(1, Math.ceil(30 / timeScale));
}

/** What an injector remembers between requests (one session). */
interface InjectorState {
  timeScale: number;
  enabled: boolean;
  byRequest: Map<number, InjectionId>;
  done: Set<InjectionId>;
  skipped: Set<InjectionId>;
  readRuns: Set<string>;
  /** Runs read `running` (answered 200) so far: a later read of one is a poll. */
  readRunning: Set<string>;
  /**
   * The held run: `watched` once the client read it before it ended; `releaseAt`, when a run nobody read
   * by its end lets go; `released`, let go (its reads and webhook tell the truth).
   */
  held?: { runId: string; startedAt: number; watched: boolean; releaseAt?: number; released?: boolean };
  /** The run whose decisions drew decisions-503: the lost answer is for another run. */
  decisions503Run?: string;
  /**
   * Org tokens in the order their first call was accepted; the second is revoked after its first accepted
   * call, or the first once every other duty is judged (`dutiesJudged`), whichever comes first.
   */
  acceptedTokens: string[];
  revokedToken?: string;
  soleRevocationDue: boolean;
  /** When a valid delivery for each run last began (epoch ms), for deliveries that came well after the start. */
  deliveredAt: Map<string, number>;
  /** When each run's start was answered (epoch ms). */
  startedAt: Map<string, number>;
  /** Runs of the webhook fixture started so far (event-delivered-twice repeats the first one's run_completed). */
  webhookFixtureRuns: Set<string>;
  /** Requests answered by an injection whose answer deliver() writes (nothing of them was executed). */
  answerOf: Map<number, Answer>;
}

/** Still to fire: on, not turned off, not fired yet. */
const armed = (s: InjectorState, id: InjectionId): boolean => s.enabled && !s.skipped.has(id) && !s.done.has(id);

const fire = (s: InjectorState, id: InjectionId, req: InjectableRequest): true => {
  s.done.add(id);
  s.byRequest.set(req.id, id);
  return true;
};

const heldUntil = (s: InjectorState): number | undefined =>
  s.held === undefined || s.held.released ? undefined : s.held.startedAt + HELD_RUNNING_MS / s.timeScale;

const is2xx = (res: Answer): boolean => res.status >= 200 && res.status < 300;

/** A revoked token stays revoked: every call carrying it is refused, none executed (redeem carries none). */
function refuseRevokedToken(s: InjectorState, req: InjectableRequest, endpoint?: EndpointName): boolean {
  const token = orgTokenOf(req);
  if (!s.enabled || token === undefined || endpoint === 'redeem') return false;
  if (
    s.revokedToken === undefined &&
    armed(s, 'org-token-revoked') &&
    (s.acceptedTokens[1] === token || (s.soleRevocationDue && s.acceptedTokens[0] === token))
  ) {
    s.revokedToken = token;
    fire(s, 'org-token-revoked', req);
  } else if (token === s.revokedToken) s.byRequest.set(req.id, 'org-token-revoked');
  if (token !== s.revokedToken) return false;
  s.answerOf.set(req.id, INJECTED_401);
  return true;
}

/** The injections at the simulate point after the revoked token and the 402, which answer in deliver(). */
function simulateFailure(
  s: InjectorState,
  req: InjectableRequest,
  endpoint?: EndpointName,
  runId?: string,
): SimulateAnswer | undefined {
  if (endpoint === 'runs-read' && runId !== undefined) {
    const seen = s.readRuns.has(runId);
    s.readRuns.add(runId);
    if (s.enabled && seen && armed(s, 'run-read-503') && fire(s, 'run-read-503', req))
      return { simulate: 'rate_limit_unavailable' };
    return undefined;
  }
  if (!s.enabled) return undefined;
  if (
    endpoint === 'decisions' &&
    armed(s, 'decisions-503') &&
    decisionCount(req.body) > 0 &&
    fire(s, 'decisions-503', req)
  ) {
    s.decisions503Run = runId;
    return { simulate: 'rate_limit_unavailable' };
  }
  // On the failed-run fixture's first start, not on the first real run: a client that rightly does not
  // retry still gets its real run, and loses only a run no step needs.
  if (endpoint === 'runs-start' && armed(s, 'run-start-500')) {
    const job = jobExternalId(req.body);
    if (job === RUN_START_500_FIXTURE && fire(s, 'run-start-500', req)) return { simulate: 'internal_error' };
  }
  if (endpoint === 'users' && armed(s, 'rate-limited-429') && fire(s, 'rate-limited-429', req)) {
    return { simulate: 'rate_limited', retryAfterSeconds: injectedRetryAfter(s.timeScale) };
  }
  return undefined;
}

function simulate(s: InjectorState, req: InjectableRequest): SimulateAnswer | undefined {
  const { endpoint, runId } = addressOf(req);
  if (refuseRevokedToken(s, req, endpoint)) return { simulate: 'rate_limit_unavailable' };
  if (s.enabled && endpoint === 'reveal' && armed(s, 'reveal-402') && fire(s, 'reveal-402', req)) {
    s.answerOf.set(req.id, INJECTED_402);
    return { simulate: 'rate_limit_unavailable' };
  }
  return simulateFailure(s, req, endpoint, runId);
}

/** A started run: when it started, and the first real run (not a fixture's) becomes the held run. */
function noteRunStarted(s: InjectorState, req: InjectableRequest, res: Answer): void {
  const job = jobExternalId(req.body);
  const runId = runIdOf(res.body);
  if (runId !== undefined) s.startedAt.set(runId, Date.now());
  if (job === REDELIVERED_FIXTURE && runId !== undefined) s.webhookFixtureRuns.add(runId);
  if (
    typeof job === 'string' &&
    !job.startsWith('cert-') &&
    runId !== undefined &&
    s.held === undefined &&
    !s.skipped.has('run-held-running')
  )
    s.held = { runId, startedAt: Date.now(), watched: false };
}

type Delivery = 'send' | 'drop' | { replace: Answer };

/** A run read as delivered: the run it read (undefined for any other request) and its body, parsed once. */
interface SeenRunRead {
  req: InjectableRequest;
  res: Answer;
  read: string | undefined;
  shown: JsonObject | undefined;
}

/** A read of the held run while held: a recruiter watches it, so it stays held for the whole 35 minutes. */
function heldRunRead(s: InjectorState, seen: SeenRunRead): Delivery | undefined {
  const { req, res, read, shown } = seen;
  const held = s.held;
  if (!held || read !== held.runId || res.status !== 200 || Date.now() >= (heldUntil(s) ?? 0)) return undefined;
  held.watched = true;
  if (!shown || shown.status === 'running') return undefined;
  fire(s, 'run-held-running', req);
  return { replace: { status: res.status, headers: res.headers, body: withStatus(shown, 'running') } };
}

/**
 * A poll (a read of a run read `running` before) draws the unknown status: a client that stops reading
 * after it stopped because of it, not because nobody watches the run any more. So does a read a
 * webhook delivery for the run prompted, whatever the run's status: a client that follows runs by
 * webhook only never polls, and its read after the delivery is the one it makes.
 */
function runStatusUnknown(s: InjectorState, seen: SeenRunRead): Delivery | undefined {
  const { req, res, read, shown } = seen;
  if (read === undefined) return undefined;
  const polled = s.readRunning.has(read);
  const delivered = s.deliveredAt.get(read);
  const prompted = delivered !== undefined && Date.now() - delivered <= PROMPTED_BY_WEBHOOK_MS / s.timeScale;
  if (shown?.status === 'running') s.readRunning.add(read);
  if (
    shown &&
    (shown.status === 'running' || (prompted && (shown.status === 'completed' || shown.status === 'failed'))) &&
    (polled || prompted) &&
    read !== s.held?.runId &&
    armed(s, 'run-status-unknown')
  ) {
    fire(s, 'run-status-unknown', req);
    return { replace: { status: res.status, headers: res.headers, body: withStatus(shown, UNKNOWN_RUN_STATUS) } };
  }
  return undefined;
}

/** The injected 503 with an error code added after the client was written (Versioning 2). */
const INJECTED_503_UNKNOWN_CODE = json(503, {
  error: UNKNOWN_ERROR_CODE,
  message: 'a service-side failure with a code added after your client was written (injected by svc-certify partner)',
});

/** Run reads: the held run and the unknown status both rewrite what the read said, parsed once. */
function deliverRunRead(s: InjectorState, req: InjectableRequest, res: Answer, read?: string): Delivery | undefined {
  const shown = read !== undefined && res.status === 200 ? runReadOf(res.body) : undefined;
  const seen = { req, res, read, shown };
  return heldRunRead(s, seen) ?? runStatusUnknown(s, seen);
}

function deliver(s: InjectorState, req: InjectableRequest, res: Answer): Delivery {
  if (!s.enabled) return 'send';
  const { endpoint, runId: pathRun } = addressOf(req);
  // simulate() stopped these before execution; the answer is the injection's own.
  const own = s.answerOf.get(req.id);
  if (own) {
    s.answerOf.delete(req.id);
    return { replace: own };
  }
  const token = orgTokenOf(req);
  if (token !== undefined && is2xx(res) && !s.acceptedTokens.includes(token)) s.acceptedTokens.push(token);
  if (endpoint === 'redeem' && res.status === 200 && armed(s, 'redeem-answer-lost')) {
    fire(s, 'redeem-answer-lost', req);
    return 'drop';
  }
  if (endpoint === 'runs-start' && res.status === 202) {
    noteRunStarted(s, req, res);
    return 'send';
  }
  const readAnswer = deliverRunRead(s, req, res, endpoint === 'runs-read' ? pathRun : undefined);
  if (readAnswer) return readAnswer;
  if (
    endpoint === 'decisions' &&
    is2xx(res) &&
    !armed(s, 'decisions-503') &&
    pathRun !== s.decisions503Run &&
    armed(s, 'decisions-answer-lost') &&
    decisionCount(req.body) > 0
  ) {
    fire(s, 'decisions-answer-lost', req);
    return 'drop';
  }
  if (endpoint === 'jobs' && is2xx(res) && armed(s, 'job-503-unknown-code')) {
    fire(s, 'job-503-unknown-code', req);
    return { replace: INJECTED_503_UNKNOWN_CODE };
  }
  return 'send';
}

/** How long (real ms) the terminal webhook of `runId` is held back. */
function terminalEventDelayMs(s: InjectorState, runId: string): number | undefined {
  const held = s.held;
  if (held?.runId !== runId || held.released) return undefined;
  // A run nobody read by its end (a client that follows runs by webhook) waits a short grace for a
  // lagging poller's first read, then lets go: its webhook is not held 35 minutes for a limit that
  // client cannot break.
  if (!held.watched) {
    const now = Date.now();
    held.releaseAt ??= now + Math.max(RELEASE_GRACE_MS / s.timeScale, RELEASE_GRACE_FLOOR_MS);
    if (now < held.releaseAt) return held.releaseAt - now;
    held.released = true;
    return undefined;
  }
  const until = heldUntil(s);
  return until === undefined ? undefined : Math.max(0, until - Date.now());
}

/** `skip`: injections turned off one by one (`--skip-injection`); `enabled: false` turns every one off (`--no-inject`). */
export function createInjector(opts: { timeScale: number; enabled: boolean; skip?: readonly InjectionId[] }): Injector {
  const s: InjectorState = {
    timeScale: opts.timeScale,
    enabled: opts.enabled,
    byRequest: new Map(),
    done: new Set(),
    skipped: new Set(opts.skip ?? []),
    readRuns: new Set(),
    readRunning: new Set(),
    acceptedTokens: [],
    soleRevocationDue: false,
    deliveredAt: new Map(),
    startedAt: new Map(),
    webhookFixtureRuns: new Set(),
    answerOf: new Map(),
  };
  return {
    simulate: (req) => simulate(s, req),
    deliver: (req, res) => deliver(s, req, res),
    injectedFor: (id) => s.byRequest.get(id),
    terminalEventDelayMs: (runId) => terminalEventDelayMs(s, runId),
    fired: () => INJECTION_POINTS.map((p) => p.id).filter((id) => s.done.has(id)),
    delivered(runId, at) {
      // A delivery right after the start (a fixture that ends at once) races the client's own first look at
      // the run: only one that came later than a client reads a run it just started prompts a read.
      const began = s.startedAt.get(runId);
      if (began !== undefined && at - began >= PROMPTED_BY_WEBHOOK_MS / s.timeScale) s.deliveredAt.set(runId, at);
    },
    redeliverAfterMs(delivered) {
      if (delivered.event !== 'run_completed' || !s.webhookFixtureRuns.has(delivered.runId)) return undefined;
      if (!armed(s, 'event-delivered-twice')) return undefined;
      s.done.add('event-delivered-twice');
      return Math.max(REDELIVERY_AFTER_MS / s.timeScale, REDELIVERY_FLOOR_MS);
    },
    awaitsDutiesJudged: () => armed(s, 'org-token-revoked') && !s.soleRevocationDue,
    dutiesJudged() {
      s.soleRevocationDue = true;
    },
  };
}
