// The retry policy (Errors › Idempotency and retries; Cross-cutting errors; the endpoints' own rules).
// A retry is the same request sent again soon after an answer (retry-chains.ts).

import { S } from '../../spec/sections.js';
import type { PartnerRequest } from '../traffic.js';
import { specMs } from '../traffic.js';
import {
  atLeast,
  canonical,
  causeFixedBetween,
  firstAfter,
  FINAL_STATUSES,
  nextRepeat,
  nothingExecuted,
  refusalHeaderChanged,
  RETRY_SAFE,
  retryAfterMs,
  retryChains,
  sameRequest,
  seconds,
  simulatedReading,
  simulationDropped,
} from './retry-chains.js';
import { ruleVerdict, type TrafficObservation, type Rule } from './rule.js';

const BACKOFF_START_MS = 1_000;
const MAX_ATTEMPTS = 3;

function answerOf(r: PartnerRequest): string {
  if (r.lost) return 'no answer (connection cut)';
  return `${r.status}${r.errorCode ? ` ${r.errorCode}` : ''}`;
}

/** Run reads by path (positions, ascending) and how many other requests came before each position. */
interface ReadIndex {
  readsByPath: Map<string, number[]>;
  /** othersBefore[p]: requests before position p that are not run reads (length: requests + 1). */
  othersBefore: number[];
}

const readIndexes = new WeakMap<readonly PartnerRequest[], ReadIndex>();

/** Built once per judgement: a failed read's earlier reads and what came between them, without a scan. */
function readIndex(requests: readonly PartnerRequest[]): ReadIndex {
  let index = readIndexes.get(requests);
  if (index) return index;
  const readsByPath = new Map<string, number[]>();
  const othersBefore = [0];
  requests.forEach((r, p) => {
    if (r.endpoint === 'runs-read') {
      const list = readsByPath.get(r.path);
      if (list) list.push(p);
      else readsByPath.set(r.path, [p]);
    }
    othersBefore.push(othersBefore[p]! + (r.endpoint === 'runs-read' ? 0 : 1));
  });
  index = { readsByPath, othersBefore };
  readIndexes.set(requests, index);
  return index;
}

/** The position of the last request whose id is below `id` (-1 when none): requests are in id order. */
function positionBefore(requests: readonly PartnerRequest[], id: number): number {
  let lo = 0;
  let hi = requests.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (requests[mid]!.id < id) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/**
 * Two recruiters watching one run each poll it, so a read of the run soon after a failed one may be the
 * other's poll, not a retry (the GETs are identical: no acting user on a read). Evidence of a second
 * reader: two earlier reads of the same run, both answered 200, the second sent no later after the first's
 * answer than this "retry" was after the failure.
 */
function otherReader(
  requests: readonly PartnerRequest[],
  failed: PartnerRequest,
  waited: number,
): [PartnerRequest, PartnerRequest] | undefined {
  if (failed.endpoint !== 'runs-read') return undefined;
  const { readsByPath, othersBefore } = readIndex(requests);
  const reads = readsByPath.get(failed.path) ?? [];
  const earlier = reads.slice(0, firstAfter(reads, positionBefore(requests, failed.id)));
  for (const [i, pb] of earlier.entries()) {
    const pa = earlier[i - 1];
    if (pa === undefined) continue;
    const a = requests[pa]!;
    const b = requests[pb]!;
    // Measured as the wait is (from an answer to the next sending), with a quarter and 5 ms for jitter; a
    // read after the client's own call in between (a refresh after a reveal) is no sign of a second reader.
    const between = othersBefore[pb]! - othersBefore[pa + 1]! > 0;
    if (!between && a.status === 200 && b.status === 200 && b.at - a.answeredAt <= Math.max(waited, 0) * 1.25 + 5)
      return [a, b];
  }
  return undefined;
}

const backoffRule: Rule = {
  id: 'retries.backoff-from-1s',
  title: 'A retry-safe call is retried after a backoff of at least 1 s (spec time)',
  suite: 'retries',
  evidence: 'provoked',
  warns: [
    "identical reads close together may be another reader's polls",
    'a retry waited less than the retry before it (backoff grows)',
  ],
  spec: [S.retries, S.crossCutting],
  hint: 'read a run twice (e.g. keep a cert-slow run on screen): the first repeat read answers 503 rate_limit_unavailable; let your client retry it',
  judge(traffic, ctx) {
    const need = specMs(ctx, BACKOFF_START_MS);
    // A measured wait is the client's intended wait plus its timer's lag, which a loaded machine stretches
    // unevenly: a later wait counts as shorter only by more than half the first step and 50 ms.
    const shrinkTolerance = Math.max(need / 2, 50);
    const offences: TrafficObservation[] = [];
    const warnings: TrafficObservation[] = [];
    const proof: number[] = [];
    for (const chain of retryChains(traffic.requests, ctx)) {
      const [head] = chain;
      if (!head || !RETRY_SAFE.has(head.endpoint)) continue;
      let previousWait: number | undefined;
      for (const [i, retry] of chain.entries()) {
        const failed = chain[i - 1];
        if (failed === undefined) continue;
        // After a 429 the Retry-After decides (retries.retry-after-honoured), not the backoff.
        if (retryAfterMs(failed) !== undefined) continue;
        const waited = retry.at - failed.answeredAt;
        // Sent before the failure was answered: a request in flight beside it (another reader's), no retry.
        if (waited < 0) continue;
        proof.push(retry.id);
        if (!atLeast(waited, need)) {
          const o: TrafficObservation = {
            message: `${retry.method} ${retry.path} retried ${seconds(waited)} after ${answerOf(failed)}, sooner than the backoff's first step of 1 s (${seconds(need)} at time scale ${ctx.timeScale})`,
            expected: `a wait of at least ${seconds(need)}`,
            received: seconds(waited),
            requests: [failed.id, retry.id],
          };
          const pair = otherReader(traffic.requests, failed, waited);
          if (pair) {
            warnings.push({
              ...o,
              requests: [pair[0].id, pair[1].id, failed.id, retry.id],
              message: o.message,
              reading: `another reader's poll of the same run, since reads ${pair[0].id} and ${pair[1].id} were ${seconds(pair[1].at - pair[0].at)} apart with nothing failed: several recruiters watch it`,
              otherReading: 'a retry sooner than the backoff',
            });
          } else offences.push(o);
        } else if (previousWait !== undefined && waited < previousWait - shrinkTolerance && waited < 2 * need) {
          // Shorter than the wait before it, and short of even a doubled first step: a wait beyond that is a
          // backoff that grew, whatever timer lag stretched the one before (283 ms then 103 ms for 10/20 ms
          // steps at time scale 100 on a loaded core).
          // "Exponential" says the wait grows; by how much is not stated, so a shrinking wait only warns.
          warnings.push({
            message: `${retry.method} ${retry.path}: retry ${i} waited ${seconds(waited)}, less than the ${seconds(previousWait)} before it; exponential backoff grows`,
            expected: `a wait of more than ${seconds(previousWait)}`,
            received: seconds(waited),
            requests: [failed.id, retry.id],
          });
        }
        previousWait = waited;
      }
    }
    return ruleVerdict(backoffRule, ctx, {
      offences,
      warnings,
      exercised: proof.length > 0,
      passMessage: `${proof.length} retr${proof.length === 1 ? 'y' : 'ies'} waited at least 1 s (spec time)`,
      proof,
    });
  },
};

const attemptsRule: Rule = {
  id: 'retries.at-most-3-attempts',
  title: 'A retry-safe call is attempted at most 3 times',
  suite: 'retries',
  evidence: 'provoked',
  spec: [S.retries],
  hint: backoffRule.hint,
  judge(traffic, ctx) {
    const offences: TrafficObservation[] = [];
    let chains = 0;
    for (const chain of retryChains(traffic.requests, ctx)) {
      const [head] = chain;
      if (!head || !RETRY_SAFE.has(head.endpoint)) continue;
      chains += 1;
      if (chain.length > MAX_ATTEMPTS) {
        offences.push({
          message: `${head.method} ${head.path} attempted ${chain.length} times`,
          expected: `at most ${MAX_ATTEMPTS} attempts`,
          received: `${chain.length} attempts`,
          requests: chain.map((r) => r.id),
        });
      }
    }
    return ruleVerdict(attemptsRule, ctx, {
      offences,
      exercised: chains > 0,
      passMessage: `${chains} retried call(s), none beyond ${MAX_ATTEMPTS} attempts`,
    });
  },
};

const retryAfterRule: Rule = {
  id: 'retries.retry-after-honoured',
  title: 'After 429 rate_limited the call waits at least Retry-After',
  suite: 'retries',
  evidence: 'provoked',
  spec: [S.crossCutting, S.retries],
  hint: 'register a recruiter (POST /users): the first one answers 429 rate_limited with Retry-After; let your client retry it',
  judge(traffic, ctx) {
    const offences: TrafficObservation[] = [];
    const proof: number[] = [];
    traffic.requests.forEach((r, i) => {
      const wait = retryAfterMs(r);
      if (wait === undefined) return;
      const retry = nextRepeat(traffic.requests, i, ctx);
      if (!retry) return;
      proof.push(retry.id);
      const waited = retry.at - r.answeredAt;
      // Retry-After is judged as sent, in real seconds: a client that honours it literally is right.
      if (!atLeast(waited, wait)) {
        offences.push({
          message: `${retry.method} ${retry.path} retried ${seconds(waited)} after 429 rate_limited with Retry-After: ${wait / 1000}`,
          expected: `a wait of at least ${wait / 1000} s`,
          received: seconds(waited),
          requests: [r.id, retry.id],
        });
      }
    });
    return ruleVerdict(retryAfterRule, ctx, {
      offences,
      exercised: proof.length > 0,
      passMessage: `${proof.length} retr${proof.length === 1 ? 'y' : 'ies'} after 429 waited the Retry-After`,
      proof,
    });
  },
};

const finalErrorsRule: Rule = {
  id: 'retries.none-after-401-403-404-409-410-422',
  title: 'Never a retry after 401, 403, 404, 409, 410 or 422',
  suite: 'retries',
  evidence: 'conditional',
  notApplicableWhen: 'the client was never refused with 401, 403, 404, 409, 410 or 422: nothing it could have retried',
  warns: [
    "an identical read of a refused run's path while earlier reads show several recruiters polling it: another reader's poll, or a retry",
  ],
  spec: [S.retries, S.crossCutting],
  hint: 'keep working with your customer after the other checklist steps: the certifier then revokes its org token at its next call (401 invalid_org_token; a second customer is revoked after its first accepted call; any other refusal of your traffic counts as well)',
  judge(traffic, ctx) {
    const offences: TrafficObservation[] = [];
    const warnings: TrafficObservation[] = [];
    let refused = 0;
    traffic.requests.forEach((r, i) => {
      if (!FINAL_STATUSES.has(r.status)) return;
      refused += 1;
      // Sent before the refusal was answered: a request in flight beside it (another reader's), no reaction to it.
      // Looked up in the index of the whole traffic: a copy of the later requests per refusal was
      // quadratic (a flood of refused reads: minutes of judging after a signal).
      const retry = nextRepeat(traffic.requests, i, ctx, { sentAfterAnswer: true });
      // Fixing the cause first (registering the recruiter, creating the job, redeeming) makes the same
      // request a new attempt on a changed state, not a retry; so does fixing a header it was refused for.
      if (retry && !causeFixedBetween(traffic.requests, r, retry) && !refusalHeaderChanged(r, retry)) {
        const o: TrafficObservation = {
          message: `${retry.method} ${retry.path} sent again after ${answerOf(r)}`,
          expected: 'no retry: fix the request or tell the user',
          received: `the same request ${seconds(retry.at - r.answeredAt)} later`,
          requests: [r.id, retry.id],
        };
        // Two recruiters watching one run send identical reads (a read names no acting user): with evidence
        // of a second reader, the repeat may be the other's poll.
        const pair = otherReader(traffic.requests, r, retry.at - r.answeredAt);
        if (pair)
          warnings.push({
            ...o,
            requests: [pair[0].id, pair[1].id, r.id, retry.id],
            message: o.message,
            reading: `another reader's poll of the same run, since reads ${pair[0].id} and ${pair[1].id} were ${seconds(pair[1].at - pair[0].at)} apart with nothing failed: several recruiters watch it`,
            otherReading: 'a retry of a refused read',
          });
        else offences.push(o);
      }
    });
    return ruleVerdict(finalErrorsRule, ctx, {
      offences,
      warnings,
      exercised: refused > 0,
      passMessage: `${refused} refused request(s), none retried`,
    });
  },
};

function field(r: PartnerRequest, name: string): unknown {
  return r.json !== null && typeof r.json === 'object' ? (r.json as Record<string, unknown>)[name] : undefined;
}

/**
 * The same run start sent again after `failed`, at any distance, with no new user action in between: a
 * run start is never retried automatically (POST /runs), so a job queue retrying after minutes is as
 * wrong as an immediate retry. A new action is a changed body (another acting user, job or count: then
 * it is no repeat at all), or, in between, a reveal or decision by the same acting user, or a read of a
 * run of the same job: the recruiter was at work and started again by hand.
 */
/** The fields of a run start (POST /runs): what decides which run it starts. */
const START_FIELDS = ['job_external_id', 'acting_user_external_id', 'target_count', 'requirements'];

/**
 * The same run start: the same run asked for, whatever else differs (a query string or body field of the
 * client's own, such as an attempt counter or request id: v1 has no idempotency key, so each is a new run).
 */
function sameStart(a: PartnerRequest, b: PartnerRequest): boolean {
  const fieldsOf = (r: PartnerRequest): string | undefined =>
    r.json !== null && typeof r.json === 'object' && !Array.isArray(r.json)
      ? canonical(START_FIELDS.map((f) => field(r, f)))
      : undefined;
  const [fa, fb] = [fieldsOf(a), fieldsOf(b)];
  return fa !== undefined && fb !== undefined ? a.path === b.path && fa === fb : sameRequest(a, b);
}

const startsOfRuns = new WeakMap<readonly PartnerRequest[], Map<string, PartnerRequest>>();

/** The start of each started run (by run id), built once per judgement. */
function startOfRuns(requests: readonly PartnerRequest[]): Map<string, PartnerRequest> {
  let startOfRun = startsOfRuns.get(requests);
  if (startOfRun) return startOfRun;
  startOfRun = new Map<string, PartnerRequest>();
  for (const r of requests) {
    const id =
      r.endpoint === 'runs-start' && r.responseJson && typeof r.responseJson === 'object'
        ? (r.responseJson as { run_id?: unknown }).run_id
        : undefined;
    if (typeof id === 'string') startOfRun.set(id, r);
  }
  startsOfRuns.set(requests, startOfRun);
  return startOfRun;
}

/**
 * The same run start sent again after `failed` with no sign of the recruiter at work in between: a run
 * start is never retried automatically (POST /runs). A start again *by hand* is a new action, which the
 * spec allows: the traffic shows it by another request of the same recruiter in between (a reveal, a
 * decision, another run start, the recruiter registered again as a page loads) or by a read of a run of the
 * same job or the same recruiter. `from`: the position after which to look (the failed start, or the
 * repeat before).
 */
function automaticRepeat(
  requests: readonly PartnerRequest[],
  failed: PartnerRequest,
  from: number,
): { repeat: PartnerRequest; index: number } | undefined {
  const user = field(failed, 'acting_user_external_id');
  const job = field(failed, 'job_external_id');
  const startOfRun = startOfRuns(requests);
  const after = requests[from]!;
  for (let j = from + 1; j < requests.length; j++) {
    const s = requests[j]!;
    if (s.at < after.at) continue;
    // One sent before the answer it follows runs beside it (two starts in flight): no reaction to it.
    if (s.endpoint === 'runs-start' && s.at >= after.answeredAt && sameStart(s, failed)) return { repeat: s, index: j };
    if (s.at < after.answeredAt) continue;
    const byUser =
      user !== undefined &&
      (((s.endpoint === 'reveal' || s.endpoint === 'decisions' || s.endpoint === 'runs-start') &&
        field(s, 'acting_user_external_id') === user) ||
        (s.endpoint === 'users' && field(s, 'external_id') === user));
    const start = s.endpoint === 'runs-read' && s.runId !== undefined ? startOfRun.get(s.runId) : undefined;
    const runRead =
      start !== undefined &&
      ((job !== undefined && field(start, 'job_external_id') === job) ||
        (user !== undefined && field(start, 'acting_user_external_id') === user));
    if (byUser || runRead) return undefined;
  }
  return undefined;
}

/**
 * Sooner than this (spec time) after the failure, a resend is no person's: reading an error and clicking
 * again takes longer. A single resend after it may be a recruiter's click as well as a queue's retry: the
 * wire cannot tell them apart.
 */
const PERSON_PAUSE_MS = 1_000;

const runStartRetryRule: Rule = {
  id: 'retries.run-start-not-retried-after-5xx',
  title: 'A run start is never retried automatically after a timeout or a 5xx, at any distance',
  suite: 'retries',
  evidence: 'provoked',
  warns: [
    'one identical resend of a failed run start after a pause of at least 1 s (spec time), with nothing of the recruiter in between: a person starting again by hand, or a queue retrying',
    'a run start resent after 503 rate_limit_unavailable (nothing was executed; the spec reads two ways)',
    'the repeat after a simulated refusal drops x-svc-sandbox-simulate (the partner moving on, or a retry)',
  ],
  spec: [S.runsStart, S.retries],
  hint: 'start the fixture cert-failed (checklist step "start runs on the fixtures"): its first start answers 500 internal_error and starts nothing; show the error (a recruiter may start it again by hand: a new action, not a retry)',
  judge(traffic, ctx) {
    const offences: TrafficObservation[] = [];
    const warnings: TrafficObservation[] = [];
    const pause = specMs(ctx, PERSON_PAUSE_MS);
    let failures = 0;
    traffic.requests.forEach((r, i) => {
      if (r.endpoint !== 'runs-start' || !(r.lost || r.status >= 500)) return;
      failures += 1;
      const first = automaticRepeat(traffic.requests, r, i);
      if (!first) return;
      const retry = first.repeat;
      const waited = retry.at - r.answeredAt;
      if (nothingExecuted(r)) {
        // Nothing was executed, so no run can be duplicated; but the text reads two ways.
        warnings.push({
          message: `POST /runs sent again ${seconds(waited)} after 503 rate_limit_unavailable: the spec reads two ways (POST /runs: "it must not be retried automatically after a timeout or 5xx"; Errors: "the quota could not be verified, nothing was executed" — "retry with backoff")`,
          expected: 'no automatic retry of a run start, or a retry with backoff after 503 rate_limit_unavailable only',
          received: 'the same run start again after 503 rate_limit_unavailable',
          requests: [r.id, retry.id],
        });
        return;
      }
      const o: TrafficObservation = {
        message: `POST /runs sent again ${seconds(waited)} after ${answerOf(r)}, with no new action of the recruiter in between: every accepted start is a new run`,
        expected: 'no automatic retry of a run start: only a new action of the recruiter starts a run again',
        received: 'the same run start again',
        requests: [r.id, retry.id],
      };
      if (simulationDropped(r, retry)) {
        warnings.push({ ...o, ...simulatedReading(r) });
        return;
      }
      // Clearly automatic: sooner than a person can read an error and click, or sent a second time.
      if (!atLeast(waited, pause)) {
        offences.push({
          ...o,
          message: `${o.message}; ${seconds(waited)} is sooner than a person can act (1 s, ${seconds(pause)} at time scale ${ctx.timeScale})`,
        });
        return;
      }
      const second = automaticRepeat(traffic.requests, r, first.index);
      if (second) {
        offences.push({
          ...o,
          message: `POST /runs sent a second time ${seconds(second.repeat.at - r.answeredAt)} after ${answerOf(r)}, with no new action of the recruiter in between: a loop retrying, not a person starting again once`,
          received: 'the same run start twice more',
          requests: [r.id, retry.id, second.repeat.id],
        });
        return;
      }
      // One resend after a pause: a recruiter who read the error and started again by hand looks exactly
      // like a queue retrying once; the traffic reads two ways.
      warnings.push({
        ...o,
        message: o.message,
        reading: `a recruiter starting again by hand once, ${seconds(waited)} later (a person's pause)`,
        otherReading: 'a queue retrying automatically',
      });
    });
    return ruleVerdict(runStartRetryRule, ctx, {
      offences,
      warnings,
      exercised: failures > 0,
      passMessage: `${failures} failed run start(s), none retried`,
    });
  },
};

/** Codes are normalized on input (case, spaces, dashes), so a retry may be written differently. */
function normalizedCode(r: PartnerRequest): string | undefined {
  const code = r.json && typeof r.json === 'object' ? (r.json as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code.replace(/[\s-]/g, '').toUpperCase() : undefined;
}

const redeemRetryRule: Rule = {
  id: 'retries.redeem-not-retried-after-lost-answer',
  title: 'A redeem is never retried after a lost answer or a 5xx',
  suite: 'retries',
  evidence: 'provoked',
  warns: ['the repeat after a simulated refusal drops x-svc-sandbox-simulate (the partner moving on, or a retry)'],
  spec: [S.redeem, S.retries],
  hint: 'connect a customer with an activation code: the first successful redemption is carried out but its answer is lost',
  judge(traffic, ctx) {
    const offences: TrafficObservation[] = [];
    const warnings: TrafficObservation[] = [];
    let failures = 0;
    traffic.requests.forEach((r, i) => {
      if (r.endpoint !== 'redeem' || !(r.lost || r.status >= 500)) return;
      failures += 1;
      // 503 rate_limit_unavailable: nothing was executed, the code is not spent ("retry with backoff").
      if (nothingExecuted(r)) return;
      const code = normalizedCode(r);
      if (code === undefined) return;
      // The code is spent whenever the lost answer was a success: any later use of it is a retry.
      const retry = traffic.requests.slice(i + 1).find((s) => s.endpoint === 'redeem' && normalizedCode(s) === code);
      if (retry) {
        const o: TrafficObservation = {
          message: `the same activation code redeemed again ${seconds(retry.at - r.answeredAt)} after ${answerOf(r)}; a new code must be obtained`,
          expected: 'no retry: ask the service operator for a new code',
          received: `a second redeem of the code${retry.status ? ` (answered ${answerOf(retry)})` : ''}`,
          requests: [r.id, retry.id],
        };
        if (simulationDropped(r, retry)) warnings.push({ ...o, ...simulatedReading(r) });
        else offences.push(o);
      }
    });
    return ruleVerdict(redeemRetryRule, ctx, {
      offences,
      warnings,
      exercised: failures > 0,
      passMessage: `${failures} failed redemption(s), none retried`,
    });
  },
};

export const retryRules: Rule[] = [
  backoffRule,
  attemptsRule,
  retryAfterRule,
  finalErrorsRule,
  runStartRetryRule,
  redeemRetryRule,
];
