// Answers the client must handle by what they mean: no retry after `402 insufficient_credits` (Errors by
// endpoint: "no retry"; also the sandbox's simulated 402), and an error code it does not know handled by
// its HTTP status (Versioning 2: "handle unknown error codes by HTTP status"; Errors: "Any code not listed
// is handled by its HTTP status"), so a 5xx with a new code on a retry-safe call is retried with backoff.

import { S } from '../../spec/sections.js';
import { specMs, type PartnerRequest } from '../traffic.js';
import {
  firstAfter,
  nextRepeat,
  RETRY_SAFE,
  sameTarget,
  seconds,
  simulatedReading,
  simulationDropped,
} from './retry-chains.js';
import { ruleVerdict, type TrafficObservation, type Rule } from './rule.js';

/** Every error code the spec lists (Errors, its three tables, and the simulated ones); anything else is unknown. */
const KNOWN_ERROR_CODES = new Set([
  'invalid_partner_key',
  'invalid_org_token',
  'partner_disabled',
  'organization_disabled',
  'rate_limited',
  'rate_limit_unavailable',
  'internal_error',
  'code_not_found',
  'code_already_redeemed',
  'code_expired',
  'external_id_taken',
  'invalid_user',
  'job_rejected',
  'requirements_rejected',
  'job_not_found',
  'user_not_found',
  'run_not_found',
  'insufficient_credits',
  'candidate_not_in_run',
  'unknown_reject_reason',
  'invalid_decision',
  'sandbox_limit',
  'sandbox_run_quota',
  'unknown_fixture',
  'webhook_not_configured',
  'invalid_request',
  'not_found',
]);

/** An unretried answer is settled once this long (spec time) has passed with no repeat: the retry window. */
const SETTLE_AFTER_MS = 60_000;

export const noRetryAfter402Rule: Rule = {
  id: 'retries.none-after-402-insufficient-credits',
  title: 'Never a retry after 402 insufficient_credits',
  suite: 'retries',
  evidence: 'provoked',
  warns: ['the repeat after a simulated refusal drops x-svc-sandbox-simulate (the partner moving on, or a retry)'],
  spec: [S.byEndpoint, S.reveal],
  hint: 'reveal a candidate: the first reveal of the session answers 402 insufficient_credits, injected on purpose by the certifier (the sandbox itself never answers 402); tell the user, do not retry',
  judge(traffic, ctx) {
    const offences: TrafficObservation[] = [];
    const warnings: TrafficObservation[] = [];
    let refused = 0;
    traffic.requests.forEach((r, i) => {
      if (r.status !== 402) return;
      refused += 1;
      const retry = nextRepeat(traffic.requests, i, ctx);
      if (retry) {
        const o: TrafficObservation = {
          message: `${retry.method} ${retry.path} sent again ${seconds(retry.at - r.answeredAt)} after 402 insufficient_credits`,
          expected: 'no retry: the organization lacks credits (show the balance and the price)',
          received: 'the same request again',
          requests: [r.id, retry.id],
        };
        if (simulationDropped(r, retry)) warnings.push({ ...o, ...simulatedReading(r) });
        else offences.push(o);
      }
    });
    return ruleVerdict(noRetryAfter402Rule, ctx, {
      offences,
      warnings,
      exercised: refused > 0,
      passMessage: `${refused} answer(s) 402 insufficient_credits, none retried${traffic.requests.some((r) => r.injected === 'reveal-402') ? ' (the 402 was injected on purpose: the sandbox never answers 402)' : ''}`,
    });
  },
};

function unknownCodeFailure(r: PartnerRequest): boolean {
  return (
    !r.lost && (r.status >= 500 || r.status === 429) && r.errorCode !== undefined && !KNOWN_ERROR_CODES.has(r.errorCode)
  );
}

/**
 * A known answer of the same kind as `unknown` (a 5xx for a 5xx, a 429 for a 429) that the client could
 * not use: how it handles those is the yardstick. A 429 is no yardstick for a 5xx: its row says "wait at
 * least that long", while the 5xx row only permits a retry ("retry with backoff only where the endpoint
 * is retry-safe"), so a client may retry every 429 and no 5xx.
 */
function knownCodeFailure(r: PartnerRequest, unknown: PartnerRequest): boolean {
  const sameKind = unknown.status === 429 ? r.status === 429 : r.status >= 500;
  return !r.lost && sameKind && r.errorCode !== undefined && KNOWN_ERROR_CODES.has(r.errorCode);
}

/**
 * Sent again at all, however late (a loaded client's timers stretch a backoff of milliseconds at a
 * high time scale): the question is whether the answer was handled as its status says, not when.
 * The same record again counts (sameTarget): a job upserted again with an edited description is handled.
 */
function sentAgainFinder(requests: readonly PartnerRequest[]): (i: number) => PartnerRequest | undefined {
  // Built on first use: only a traffic with an unknown error code needs it.
  let byPath: Map<string, number[]> | undefined;
  const pathIndex = (): Map<string, number[]> => {
    if (byPath) return byPath;
    byPath = new Map();
    for (let i = 0; i < requests.length; i++) {
      const key = `${requests[i]!.method} ${requests[i]!.path}`;
      const list = byPath.get(key);
      if (list) list.push(i);
      else byPath.set(key, [i]);
    }
    return byPath;
  };
  return (i) => {
    // Only requests of the same method and path can be the same target: a scan of those alone.
    const r = requests[i]!;
    const same = pathIndex().get(`${r.method} ${r.path}`) ?? [];
    for (let p = firstAfter(same, i); p < same.length; p++) {
      const s = requests[same[p]!]!;
      if (sameTarget(r, s)) return s;
    }
    return undefined;
  };
}

export const unknownErrorCodeRule: Rule = {
  id: 'unknown-values.error-code-handled-by-status',
  title: 'An unknown error code is handled by its HTTP status (a 5xx on a retry-safe call is retried)',
  suite: 'unknown-values',
  evidence: 'provoked',
  warns: ['an unknown-code error is not retried where no known error of that status was retried either'],
  spec: [S.versioning, S.errors],
  hint: 'create one of your own jobs (POST /jobs): the first answers 503 with the new code zz_new_error; let your client handle it as any 503',
  judge(traffic, ctx) {
    const offences: TrafficObservation[] = [];
    const warnings: TrafficObservation[] = [];
    const proof: number[] = [];
    const requests = traffic.requests;
    const sentAgain = sentAgainFinder(requests);
    // The yardstick depends only on the method and the kind of failure (429 or 5xx): found once for each.
    const knownRetriedOf = new Map<string, PartnerRequest | undefined>();
    requests.forEach((r, i) => {
      if (!RETRY_SAFE.has(r.endpoint) || !unknownCodeFailure(r)) return;
      // How the client handles a known 429 or 5xx on a retry-safe call of the same method: the yardstick for the
      // unknown code. Many retry layers retry only GETs (urllib3's default methods, for one); a client that
      // retries a failed read but no failed POST handles a POST's unknown code by its status all the same.
      const key = `${r.method} ${r.status === 429 ? '429' : '5xx'}`;
      if (!knownRetriedOf.has(key))
        knownRetriedOf.set(
          key,
          requests.find(
            (k, j) =>
              k.method === r.method &&
              RETRY_SAFE.has(k.endpoint) &&
              knownCodeFailure(k, r) &&
              sentAgain(j) !== undefined,
          ),
        );
      const knownRetried = knownRetriedOf.get(key);
      const retry = sentAgain(i);
      if (retry) {
        proof.push(retry.id);
        return;
      }
      if (!ctx.final && ctx.now - r.answeredAt <= specMs(ctx, SETTLE_AFTER_MS)) return;
      const o: TrafficObservation = {
        message: `${r.method} ${r.path} answered ${r.status} ${r.errorCode} (a code the client cannot know) was never retried`,
        expected: `handled by its status ${r.status}: retried with backoff (the call is retry-safe)`,
        received: 'no retry',
        requests: knownRetried ? [knownRetried.id, r.id] : [r.id],
      };
      if (knownRetried) {
        offences.push({
          ...o,
          message: `${o.message}, though a ${knownRetried.status} ${knownRetried.errorCode} was retried: the unknown code was not handled by its status`,
        });
      } else {
        // With no known 5xx retried to compare with, not retrying may be the client's policy for every 5xx.
        warnings.push({
          ...o,
          message: o.message,
          reading: `no known ${r.status >= 500 ? '5xx' : r.status} of a ${r.method} was retried either, and retrying is "retry with backoff only where the endpoint is retry-safe", a permission`,
          otherReading: 'the 5xx policy every client follows',
        });
      }
    });
    return ruleVerdict(unknownErrorCodeRule, ctx, {
      offences,
      warnings,
      exercised: proof.length > 0,
      passMessage: `${proof.length} answer(s) with an unknown error code handled by their status (retried)`,
      proof,
    });
  },
};
