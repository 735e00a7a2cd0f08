// Which requests are retries of which: the partner's client sends the same request again (same method,
// path, query and body, JSON compared by value) after an answer it could not use. Shared by the retry rules.

import type { JudgeContext, PartnerRequest } from '../traffic.js';
import { specMs } from '../traffic.js';
import type { Readings } from '../../runner/assertions.js';

/** Requests the spec calls retry-safe (Errors › Idempotency and retries: "Retry after a timeout: yes"). */
export const RETRY_SAFE = new Set(['users', 'jobs', 'runs-read', 'reveal', 'decisions']);

/** Answers after which the spec says never to retry. */
export const FINAL_STATUSES = new Set([401, 403, 404, 409, 410, 422]);

/**
 * An identical request this long (spec time) after an answer is taken for an automatic retry; a person
 * doing the same thing again takes longer, and the spec's backoff (1 s, 2 s, …, at most 3 attempts) fits
 * well inside. After a 429 the Retry-After comes on top.
 */
const RETRY_WINDOW_MS = 60_000;

/**
 * Real ms the retry window never goes below: a loaded machine stalls a client's timers by hundreds of ms,
 * which at a high time scale would push a retry out of a window of spec time (at time scale 1 the spec's
 * minute is far longer).
 */
const RETRY_WINDOW_FLOOR_MS = 2_000;

/** The retry window after an answer, in real ms, before any Retry-After. */
export function retryWindowMs(ctx: Pick<JudgeContext, 'timeScale'>): number {
  return Math.max(specMs(ctx, RETRY_WINDOW_MS), RETRY_WINDOW_FLOOR_MS);
}

/** JSON by value: the same text for equal values whatever the order of their keys. */
export function canonical(value: unknown): string {
  // An integer past 2^53 is kept exact by the recorder (a bigint): its digits, as JSON writes them.
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/**
 * Two requests are "the same request" when this key is equal. A recorded body compares by its hash
 * (`body.key`: canonical JSON, or the bytes of a body too large to keep), so an evicted or capped body
 * still compares; hand-built traffic without a record compares its JSON by value, or its text.
 */
function requestKey(r: PartnerRequest): string {
  const body = r.body ? r.body.key : r.json !== undefined ? canonical(r.json) : r.bodyText;
  return `${r.method} ${r.path}?${r.query}\n${body}`;
}

/** The same request: method, path, query and body (JSON by value). */
export function sameRequest(a: PartnerRequest, b: PartnerRequest): boolean {
  return requestKey(a) === requestKey(b);
}

/** An answer the client could not use and may retry (where the endpoint allows): 429, 5xx, or lost. */
function isRetryableFailure(r: PartnerRequest): boolean {
  return r.lost || r.status === 429 || r.status >= 500;
}

/** Retry-After of a 429 in real ms (the value actually sent), or undefined. */
export function retryAfterMs(r: PartnerRequest): number | undefined {
  if (r.status !== 429) return undefined;
  const raw = r.responseHeaders['retry-after'];
  if (raw === undefined || !/^\s*\d+\s*$/.test(raw)) return undefined;
  return Number(raw) * 1000;
}

function windowAfter(r: PartnerRequest, ctx: JudgeContext): number {
  return retryWindowMs(ctx) + (retryAfterMs(r) ?? 0);
}

/**
 * The traffic's requests grouped by method and path, built once per judgement (the judge hands every
 * rule the same array): a repeat lookup reads only the requests of its own method and path, so a flood
 * of distinct requests costs one step each instead of a scan of the whole retry window per request. No
 * key string is built per request: the nested maps reuse the strings the records hold.
 */
const repeatIndexes = new WeakMap<readonly PartnerRequest[], Map<string, Map<string, number[]>>>();

function repeatIndex(requests: readonly PartnerRequest[]): Map<string, Map<string, number[]>> {
  let index = repeatIndexes.get(requests);
  if (index) return index;
  index = new Map();
  for (let i = 0; i < requests.length; i++) {
    const r = requests[i]!;
    let byPath = index.get(r.method);
    if (!byPath) index.set(r.method, (byPath = new Map()));
    const list = byPath.get(r.path);
    if (list) list.push(i);
    else byPath.set(r.path, [i]);
  }
  repeatIndexes.set(requests, index);
  return index;
}

/** What of a body decides "the same request" (see requestKey). */
function bodyKey(r: PartnerRequest): string {
  return r.body ? r.body.key : r.json !== undefined ? canonical(r.json) : r.bodyText;
}

/** The first position of the ascending `list` greater than `after` (list.length when none). */
export function firstAfter(list: readonly number[], after: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! > after) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * The position of the next request with the same key sent within the retry window after `requests[index]`
 * was answered, or -1. `sentAfterAnswer`: only one sent once the answer was out (one sent while the request
 * was in flight is a request beside it, not a reaction to its answer).
 */
function nextRepeatAt(
  requests: readonly PartnerRequest[],
  index: number,
  ctx: JudgeContext,
  sentAfterAnswer = false,
): number {
  const r = requests[index]!;
  const from = sentAfterAnswer ? r.answeredAt : r.at;
  const same = repeatIndex(requests).get(r.method)?.get(r.path) ?? [];
  const limit = r.answeredAt + windowAfter(r, ctx);
  let key: string | undefined;
  // Requests are in arrival order, so the first of the same method and path past the window ends the search.
  for (let p = firstAfter(same, index); p < same.length; p++) {
    const at = same[p]!;
    const s = requests[at]!;
    if (s.at > limit) break;
    if (s.at < from || s.query !== r.query) continue;
    key ??= bodyKey(r);
    if (bodyKey(s) === key) return at;
  }
  return -1;
}

/** The next request with the same key sent within the retry window after `r` was answered, if any. */
export function nextRepeat(
  requests: readonly PartnerRequest[],
  index: number,
  ctx: JudgeContext,
  opts: { sentAfterAnswer?: boolean } = {},
): PartnerRequest | undefined {
  const at = nextRepeatAt(requests, index, ctx, opts.sentAfterAnswer);
  return at < 0 ? undefined : requests[at];
}

/** Requests that change what another request depends on: the recruiter, the job, the organization. */
const CAUSE_FIXING = new Set(['users', 'jobs', 'redeem']);

/**
 * A request between `refused` and `repeat` (by arrival) that may have changed what the refused one
 * depended on: a POST /users, POST /jobs or redeem the sandbox did not refuse (accepted, or its answer
 * lost). The repeat after it is a new attempt on a changed state (`404 user_not_found` → POST /users →
 * the same POST /runs), not a retry.
 */
export function causeFixedBetween(
  requests: readonly PartnerRequest[],
  refused: PartnerRequest,
  repeat: PartnerRequest,
): PartnerRequest | undefined {
  // The first cause-fixing request after the refused one (binary search by id), if before the repeat.
  const fixes = causeFixingIndex(requests);
  let lo = 0;
  let hi = fixes.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (fixes[mid]!.id > refused.id) hi = mid;
    else lo = mid + 1;
  }
  const s = fixes[lo];
  return s !== undefined && s.id < repeat.id ? s : undefined;
}

const causeFixingIndexes = new WeakMap<readonly PartnerRequest[], PartnerRequest[]>();

/** The requests that may fix a cause (see causeFixedBetween), in arrival order: built once per judgement. */
function causeFixingIndex(requests: readonly PartnerRequest[]): PartnerRequest[] {
  let fixes = causeFixingIndexes.get(requests);
  if (!fixes) {
    fixes = requests.filter(
      (s) => s.method === 'POST' && CAUSE_FIXING.has(s.endpoint) && (s.lost || (s.status >= 200 && s.status < 300)),
    );
    causeFixingIndexes.set(requests, fixes);
  }
  return fixes;
}

/** A 503 rate_limit_unavailable: the quota could not be verified and nothing was executed (Errors). */
export function nothingExecuted(r: PartnerRequest): boolean {
  return !r.lost && r.status === 503 && r.errorCode === 'rate_limit_unavailable';
}

const chainMemo = new WeakMap<readonly PartnerRequest[], { ctx: JudgeContext; chains: PartnerRequest[][] }>();

/** Chains of attempts: a first request and its retries, each retry following a retryable failure. */
export function retryChains(requests: readonly PartnerRequest[], ctx: JudgeContext): PartnerRequest[][] {
  // Several rules read the chains of one judgement: found once.
  const memo = chainMemo.get(requests);
  if (memo && memo.ctx === ctx) return memo.chains;
  const taken = new Set<number>();
  const chains: PartnerRequest[][] = [];
  for (let i = 0; i < requests.length; i++) {
    const first = requests[i]!;
    if (!isRetryableFailure(first) || taken.has(i)) continue;
    const chain = [first];
    let cur = i;
    while (isRetryableFailure(requests[cur]!)) {
      const next = nextRepeatAt(requests, cur, ctx);
      if (next < 0 || taken.has(next)) break;
      taken.add(next);
      chain.push(requests[next]!);
      cur = next;
    }
    if (chain.length > 1) chains.push(chain);
  }
  chainMemo.set(requests, { ctx, chains });
  return chains;
}

/** Real-time tolerance for timer granularity when judging a wait: 2 % plus 2 ms. */
export function atLeast(waitedMs: number, requiredMs: number): boolean {
  return waitedMs >= requiredMs * 0.98 - 2;
}

export function seconds(ms: number): string {
  return ms >= 10_000
    ? `${(ms / 1000).toFixed(1)} s`
    : ms >= 1000
      ? `${(ms / 1000).toFixed(2)} s`
      : `${Math.round(ms)} ms`;
}

const SIMULATE = 'x-svc-sandbox-simulate';

/**
 * The refused answer was asked for by the request's own `x-svc-sandbox-simulate` (nothing executed), and
 * the repeat no longer asks for it: a retry layer replays its request as sent, so this reads as the
 * partner's test moving on to the real call; it may also be a retry whose header was set only once.
 */
export function simulationDropped(refused: PartnerRequest, repeat: PartnerRequest): boolean {
  const asked = refused.headers[SIMULATE];
  return asked !== undefined && repeat.headers[SIMULATE] !== asked;
}

/** The two readings of a repeat after a simulated refusal, as a rule's warning says them. */
export function simulatedReading(refused: PartnerRequest): Readings {
  return {
    reading: `the refusal was simulated at the request's own ${SIMULATE}: ${refused.headers[SIMULATE]} and the repeat does not ask for it, so it is the partner's test moving on, not a retry`,
    otherReading: 'a retry that dropped the header',
  };
}

/**
 * What a call acts on, beyond its path: an upsert (POST /users, POST /jobs) acts on its `external_id`, so
 * sending that record again after a failure is handling the failure, whatever else of the body changed
 * meanwhile (an edited description, a request id of the client's own). Other calls act on their path.
 */
export function sameTarget(a: PartnerRequest, b: PartnerRequest): boolean {
  if (a.method !== b.method || a.path !== b.path) return false;
  if (a.endpoint !== 'users' && a.endpoint !== 'jobs') return sameRequest(a, b);
  const id = (r: PartnerRequest): unknown =>
    r.json !== null && typeof r.json === 'object' ? (r.json as { external_id?: unknown }).external_id : undefined;
  const ida = id(a);
  return ida !== undefined ? canonical(ida) === canonical(id(b)) : sameRequest(a, b);
}

/** Request headers a refusal may be about: the credentials, the body's media type, the sandbox's own headers. */
const REFUSAL_HEADERS = [
  'x-partner-key',
  'x-svc-org',
  'content-type',
  'x-svc-sandbox-simulate',
  'x-svc-sandbox-reveal-price',
];

/**
 * The repeat changed a header the refusal may have been about (a rotated partner key after 401, a valid
 * x-svc-sandbox-reveal-price after 422 invalid_request): a fixed request, not a retry of the refused one.
 */
export function refusalHeaderChanged(refused: PartnerRequest, repeat: PartnerRequest): string | undefined {
  return REFUSAL_HEADERS.find((h) => refused.headers[h] !== repeat.headers[h]);
}
