import { ApiError, jsonBody, segment, type Reply, type RequestContext } from '../context.js';
import { FIRST_FIXTURE_ID, fixtureMaxListed } from '../fixtures/definitions.js';
import { asInt64, isRecord, RawNumber } from '../json.js';
import { currentState } from '../run-view.js';
import type { DecisionEntry, Organization, Run } from '../store.js';
import { actingUser, lookupRun } from './run-lookup.js';
import type { FaultSet } from '../faults/index.js';
import type { VariantSet } from '../variants/index.js';
import { occurredAtTaken } from '../text-policy.js';

export const DECISIONS = ['shortlisted', 'rejected', 'contacted', 'interviewing', 'hired'];
export const REJECT_REASONS = [
  'cv_irrelevant',
  'overqualified',
  'location',
  'insufficient_experience',
  'declined',
  'candidate_withdrew',
  'known',
];
/** The spec's known notice codes: only what the fault `decisions.unknown-notice-code-refused` accepts. */
const KNOWN_NOTICE_CODES = [
  'requirement_blockers',
  'widen_hint',
  'already_shown',
  'relaxation_ladder',
  'location_relaxed',
  'global_relaxed',
  'paid_fallback',
  'lean_search_failed',
  'requirement_attribution',
  'run_funnel',
  'run_progress',
  'function_error',
  'must_unmet_hidden',
];

/** Candidates a decision may name: any the fixture will ever list, or any the run listed so far. */
function knownCandidates(rc: RequestContext, run: Run): (id: bigint) => boolean {
  // The fault decisions.fixture-unlisted-candidate-refused: a fixture run too accepts only what it listed so far.
  if (run.fixture && !rc.app.config.faults.has('decisions.fixture-unlisted-candidate-refused')) {
    const max = BigInt(fixtureMaxListed(run.fixture, run.targetCount));
    return (id) => id >= FIRST_FIXTURE_ID && id < FIRST_FIXTURE_ID + max;
  }
  const listed = new Set(currentState(rc.app, run, rc.lang)?.snapshot.candidates.map((c) => c.id) ?? []);
  return (id) => listed.has(id) || run.quotedPrices.has(id);
}

type Parsed = { ok: true; entry: Omit<DecisionEntry, 'actingUser' | 'receivedAt'> } | { ok: false; error: ApiError };

function parseDecision(item: unknown, inRun: (id: bigint) => boolean, faults: FaultSet, variants: VariantSet): Parsed {
  const invalid = (reason: string): Parsed => ({ ok: false, error: new ApiError(422, 'invalid_decision', { reason }) });
  if (!isRecord(item)) return invalid('decision must be an object');
  const exact = asInt64(item.candidate_id);
  const candidateId =
    exact !== undefined && faults.has('decisions.candidate-id-rounded') ? BigInt(Number(exact)) : exact;
  if (candidateId === undefined || candidateId < 0n) return invalid('candidate_id must be an int64');
  if (
    typeof item.decision !== 'string' ||
    (!DECISIONS.includes(item.decision) && !faults.has('decisions.unknown-decision-stored'))
  )
    return invalid('unknown decision');
  const reason = item.reject_reason;
  if (reason === null && faults.has('decisions.null-reason-refused')) return invalid('reject_reason required');
  if (reason !== undefined && reason !== null) {
    if (item.decision !== 'rejected' && !faults.has('decisions.reason-on-non-rejected-accepted'))
      return invalid('reject_reason only with rejected');
    if (
      typeof reason !== 'string' ||
      !REJECT_REASONS.includes(reason) ||
      (reason === 'known' && faults.has('decisions.reason-known-refused'))
    ) {
      return {
        ok: false,
        error: new ApiError(422, 'unknown_reject_reason', {
          allowed: faults.has('decisions.allowed-incomplete')
            ? REJECT_REASONS.filter((r) => r !== 'known')
            : [...REJECT_REASONS],
        }),
      };
    }
  }
  if (item.note !== undefined && item.note !== null && typeof item.note !== 'string')
    return invalid('note must be a string or null');
  // The fault stamps a missing occurred_at with the time received, instead of refusing the batch.
  const at =
    item.occurred_at === undefined && faults.has('decisions.missing-occurred-at-stamped')
      ? new Date().toISOString()
      : item.occurred_at;
  const occurredAt = typeof at === 'string' ? occurredAtTaken(variants, at) : undefined;
  if (occurredAt === undefined) return invalid('occurred_at must be an ISO 8601 date-time');
  if (!inRun(candidateId)) return invalid('candidate not in run');
  return {
    ok: true,
    entry: {
      candidateId,
      decision: item.decision,
      rejectReason: typeof reason === 'string' ? reason : null,
      note: typeof item.note === 'string' ? item.note : null,
      occurredAt,
    },
  };
}

/** The run of the path; two faults break how an unknown or another organization's run is answered. */
function decisionsLookup(rc: RequestContext): { run: Run; org: Organization } | undefined {
  try {
    return lookupRun(rc, segment(rc, 1));
  } catch (e) {
    if (!(e instanceof ApiError) || e.code !== 'run_not_found') throw e;
    const foreign = rc.app.store.runs.has(segment(rc, 1).toLowerCase());
    if (foreign && rc.app.config.faults.has('decisions.other-org-403')) throw new ApiError(403, 'forbidden');
    if (!foreign && rc.app.config.faults.has('decisions.unknown-run-accepted')) return undefined;
    throw e;
  }
}

export function decisionsRoute(rc: RequestContext): Reply {
  const { app } = rc;
  const faults = app.config.faults;
  const found = decisionsLookup(rc);
  const body = jsonBody(rc);
  if (!found)
    return {
      status: app.config.createdStatus,
      body: { accepted: Array.isArray(body.decisions) ? body.decisions.length : 0, duplicates: 0 },
    };
  const { run, org } = found;
  const user =
    faults.has('decisions.unknown-user-accepted') && typeof body.acting_user_external_id === 'string'
      ? body.acting_user_external_id
      : // The fault isolation.decisions-user-any-org: a recruiter of any organization of the partner is found.
        actingUser(rc, org, body.acting_user_external_id, faults.has('isolation.decisions-user-any-org'));
  // Absent is an empty list (neither is stated required); null is no array (a schema mismatch).
  const decisions = body.decisions === undefined ? [] : body.decisions;
  const shown = body.notices_shown === undefined ? [] : body.notices_shown;
  if (!Array.isArray(decisions)) throw new ApiError(422, 'invalid_request', { field: 'decisions' });
  if (!Array.isArray(shown) || !shown.every((s) => typeof s === 'string'))
    throw new ApiError(422, 'invalid_request', { field: 'notices_shown' });
  if (faults.has('decisions.unknown-notice-code-refused') && shown.some((c) => !KNOWN_NOTICE_CODES.includes(c))) {
    throw new ApiError(422, 'invalid_request', { field: 'notices_shown' });
  }
  if (faults.has('decisions.notices-repeat-refused') && shown.some((c) => run.noticesShown.has(c)))
    throw new ApiError(409, 'notice_already_reported');

  const inRun = knownCandidates(rc, run);
  const now = app.now();
  const entries: DecisionEntry[] = [];
  for (const item of decisions) {
    const parsed = parseDecision(item, inRun, faults, app.config.variants);
    // Variant decisions.whole-second-occurred-at: stored at second precision, as many databases do.
    if (parsed.ok && app.config.variants.has('decisions.whole-second-occurred-at')) {
      parsed.entry.occurredAt = new Date(Math.floor(Date.parse(parsed.entry.occurredAt) / 1000) * 1000).toISOString();
    }
    if (!parsed.ok) {
      if (faults.has('decisions.rejection-stores-part')) store(run, entries, faults);
      throw parsed.error;
    }
    entries.push({ ...parsed.entry, actingUser: user, receivedAt: now });
  }
  const { accepted, duplicates } = store(run, entries, faults);
  for (const code of shown) run.noticesShown.add(code);
  // Variant json.decision-counts-as-decimals: `3.0` is the number 3 in JSON (RFC 8259 has one number type).
  const count = (n: number): unknown =>
    app.config.variants.has('json.decision-counts-as-decimals') ? new RawNumber(`${n}.0`) : n;
  const response: Record<string, unknown> = {
    accepted: count(faults.has('decisions.accepted-always-zero') ? 0 : accepted),
    duplicates: count(duplicates),
  };
  if (faults.has('decisions.response-missing-duplicates')) delete response.duplicates;
  if (run.fixture === 'cert-extra-fields' && !faults.has('fixtures.extra-fields-missing-on-decisions')) {
    response.zz_extra_top_level = 'clients must ignore this';
    response.zz_future_object = { nested: true };
  }
  // The fault gives this one endpoint's success a bare application/json: every other answer keeps the charset.
  const headers = faults.has('conventions.decisions-success-without-charset')
    ? { 'content-type': 'application/json' }
    : undefined;
  return {
    status: app.config.variants.has('status.decisions-202') ? 202 : app.config.createdStatus,
    body: response,
    ...(headers ? { headers } : {}),
  };
}

function store(run: Run, entries: DecisionEntry[], faults: FaultSet): { accepted: number; duplicates: number } {
  let accepted = 0;
  let duplicates = 0;
  for (const e of entries) {
    // The faults key on part of (candidate, decision, occurred_at): without occurred_at, or on it alone.
    const key = faults.has('decisions.dedupe-ignores-occurred-at')
      ? `${e.candidateId}|${e.decision}`
      : faults.has('decisions.dedupe-keyed-on-occurred-at')
        ? e.occurredAt
        : `${e.candidateId}|${e.decision}|${e.occurredAt}`;
    if (run.decisions.has(key)) {
      if (faults.has('decisions.duplicates-miscounted')) accepted++;
      else duplicates++;
    } else {
      run.decisions.set(key, e);
      accepted++;
    }
  }
  return { accepted, duplicates };
}
