import {
  admit,
  answer,
  ApiError,
  jsonBody,
  refusal,
  refuse,
  segment,
  type Reply,
  type RequestContext,
} from '../context.js';
import { FIRST_FIXTURE_ID, fixtureMaxListed } from '../fixtures/definitions.js';
import { asInt64, isRecord, RawNumber } from '../json.js';
import { currentState } from '../run-view.js';
import type { DecisionEntry, Run } from '../store.js';
import { actingUser, findRun } from './run-lookup.js';
import { occurredAtTaken } from '../text-policy.js';
import { DECISIONS, REJECT_REASONS } from '../decision-vocabulary.js';

/** Candidates a decision may name: any the fixture will ever list, or any the run listed so far. */
function knownCandidates(
  rc: RequestContext,
  run: Run,
): { inRun: (id: bigint) => boolean; listed: (id: bigint) => boolean } {
  let listedSet: Set<bigint> | undefined;
  const listed = (id: bigint) => {
    listedSet ??= new Set(currentState(rc.app, run, rc.lang)?.snapshot.candidates.map((c) => c.id) ?? []);
    return listedSet.has(id) || run.quotedPrices.has(id);
  };
  if (run.fixture) {
    const max = BigInt(fixtureMaxListed(run.fixture, run.targetCount));
    return { inRun: (id) => id >= FIRST_FIXTURE_ID && id < FIRST_FIXTURE_ID + max, listed };
  }
  return { inRun: listed, listed };
}

/** One decision item, valid, or thrown as `invalid_decision` / `unknown_reject_reason` (DecisionItem). */
function parseDecision(
  rc: RequestContext,
  item: unknown,
  candidates: ReturnType<typeof knownCandidates>,
): Omit<DecisionEntry, 'actingUser' | 'receivedAt'> {
  const invalid = (reason: string) => new ApiError(422, 'invalid_decision', { reason });
  if (!isRecord(item)) throw invalid('decision must be an object');
  const exact = asInt64(item.candidate_id);
  const candidateId = exact === undefined ? undefined : rc.app.points.id(exact, { route: rc.route });
  if (candidateId === undefined || candidateId < 0n) throw invalid('candidate_id must be an int64');
  const decision = item.decision;
  if (typeof decision !== 'string') throw invalid('unknown decision');
  if (!DECISIONS.includes(decision)) refuse(rc, { cause: 'unknown-decision' }, invalid('unknown decision'));
  const reason = item.reject_reason;
  if (reason !== undefined && reason !== null) {
    if (decision !== 'rejected')
      refuse(rc, { cause: 'reason-without-rejection' }, invalid('reject_reason only with rejected'));
    if (typeof reason !== 'string' || !REJECT_REASONS.includes(reason))
      throw refusal(
        rc,
        { cause: 'unknown-reject-reason' },
        new ApiError(422, 'unknown_reject_reason', { allowed: [...REJECT_REASONS] }),
      );
  }
  if (item.note !== undefined && item.note !== null && typeof item.note !== 'string')
    throw invalid('note must be a string or null');
  const occurredAt =
    typeof item.occurred_at === 'string' ? occurredAtTaken(rc.app.config.variants, item.occurred_at) : undefined;
  if (occurredAt === undefined) throw invalid('occurred_at must be an ISO 8601 date-time');
  if (!candidates.inRun(candidateId)) throw invalid('candidate not in run');
  admit(rc, { item, listedSoFar: () => candidates.listed(candidateId) });
  return {
    candidateId,
    decision,
    rejectReason: typeof reason === 'string' ? reason : null,
    note: typeof item.note === 'string' ? item.note : null,
    occurredAt,
  };
}

/**
 * POST /runs/{run_id}/decisions: a batch of decisions by a recruiter of the organization, about candidates
 * of the run, all or nothing; a repeat of (candidate, decision, occurred_at) is a duplicate, not an error.
 */
export function decisionsRoute(rc: RequestContext): Reply {
  const { app } = rc;
  const found = findRun(rc, segment(rc, 1));
  const body = jsonBody(rc);
  if (!found)
    return answer(rc, {
      status: app.config.createdStatus,
      body: { accepted: Array.isArray(body.decisions) ? body.decisions.length : 0, duplicates: 0 },
    });
  const { run, org } = found;
  const user = actingUser(rc, org, body.acting_user_external_id);
  // Absent is an empty list (neither is stated required); null is no array (a schema mismatch).
  const decisions = body.decisions === undefined ? [] : body.decisions;
  const shown = body.notices_shown === undefined ? [] : body.notices_shown;
  if (!Array.isArray(decisions)) throw new ApiError(422, 'invalid_request', { field: 'decisions' });
  if (!Array.isArray(shown) || !shown.every((s) => typeof s === 'string'))
    throw new ApiError(422, 'invalid_request', { field: 'notices_shown' });
  admit(rc, { noticesShown: shown, noticesAlreadyShown: shown.filter((c) => run.noticesShown.has(c)) });

  const candidates = knownCandidates(rc, run);
  const now = app.now();
  const entries: DecisionEntry[] = [];
  for (const item of decisions) {
    let entry;
    try {
      entry = parseDecision(rc, item, candidates);
    } catch (e) {
      // Inline, as it changes state: the valid part of a refused batch is stored.
      if (app.config.faults.has('decisions.rejection-stores-part')) store(rc, run, entries);
      throw e;
    }
    // Variant decisions.whole-second-occurred-at: stored at second precision, as many databases do.
    if (app.config.variants.has('decisions.whole-second-occurred-at'))
      entry.occurredAt = new Date(Math.floor(Date.parse(entry.occurredAt) / 1000) * 1000).toISOString();
    entries.push({ ...entry, actingUser: user, receivedAt: now });
  }
  const { accepted, duplicates } = store(rc, run, entries);
  for (const code of shown) run.noticesShown.add(code);
  // Variant json.decision-counts-as-decimals: `3.0` is the number 3 in JSON (RFC 8259 has one number type).
  const count = (n: number): unknown =>
    app.config.variants.has('json.decision-counts-as-decimals') ? new RawNumber(`${n}.0`) : n;
  const response: Record<string, unknown> = { accepted: count(accepted), duplicates: count(duplicates) };
  if (run.fixture === 'cert-extra-fields') {
    response.zz_extra_top_level = 'clients must ignore this';
    response.zz_future_object = { nested: true };
  }
  return answer(
    rc,
    { status: app.config.variants.has('status.decisions-202') ? 202 : app.config.createdStatus, body: response },
    { accepted, duplicates, ...(run.fixture ? { fixture: run.fixture } : {}) },
  );
}

/** Stores the entries; a repeat of the key (candidate, decision, occurred_at) counts as a duplicate. */
function store(rc: RequestContext, run: Run, entries: DecisionEntry[]): { accepted: number; duplicates: number } {
  let accepted = 0;
  let duplicates = 0;
  for (const e of entries) {
    const key = rc.app.points.decisionKey(`${e.candidateId}|${e.decision}|${e.occurredAt}`, e);
    if (run.decisions.has(key)) duplicates++;
    else {
      run.decisions.set(key, e);
      accepted++;
    }
  }
  return { accepted, duplicates };
}
