import {
  answer,
  ApiError,
  isSandbox,
  jsonBody,
  refusal,
  refuse,
  requireOrg,
  type Reply,
  type RequestContext,
} from '../context.js';
import { emitTerminal } from '../events.js';
import { FIXTURE_REQUIREMENTS, SLOW_FIXTURE_MS } from '../fixtures/definitions.js';
import { FIXTURE_NAMES, isFixtureName } from '../fixtures/fixture-names.js';
import { newUuid } from '../ids.js';
import { quotaRetryAfter, recordRealRun, SANDBOX_RUN_QUOTA } from '../quota.js';
import { derivedRequirements, validateRequirements, type RequirementOutcome } from '../requirements.js';
import { currentState } from '../run-view.js';
import type { Job, Organization, Run } from '../store.js';
import type { EngineRequirement } from '../collaborators.js';
import type { RequirementIssue } from '../messages.js';

/** The issues about a requirement's form, which the variant runs-start.form-issues-first reports first. */
const FORM_ISSUES: ReadonlySet<string> = new Set(['invalid_kind', 'empty_text', 'too_long']);

const SANDBOX_MAX_TARGET = 20;
const PRODUCTION_MAX_TARGET = 100;

/** The start as the body states it, its form checked (spec: POST /runs, the request body). */
interface StartRequest {
  jobExternalId: string;
  actingUserId: string;
  targetCount: number;
  /** The job id names a fixture (`cert-*`), known or not. */
  fixtureStart: boolean;
  submitted: unknown;
}

function readStart(rc: RequestContext, body: Record<string, unknown>): StartRequest {
  const { settings } = rc.app.config;
  const { job_external_id: jobExternalId, acting_user_external_id: actingUserId, target_count: targetCount } = body;
  if (typeof jobExternalId !== 'string' || jobExternalId === '')
    throw new ApiError(422, 'invalid_request', { field: 'job_external_id' });
  if (typeof actingUserId !== 'string')
    throw new ApiError(422, 'invalid_request', { field: 'acting_user_external_id' });
  if (typeof targetCount !== 'number' || !Number.isInteger(targetCount))
    throw new ApiError(422, 'invalid_request', { field: 'target_count' });
  const fixtureStart = jobExternalId.startsWith('cert-');
  if (settings.sandboxTargetLimit && targetCount > SANDBOX_MAX_TARGET)
    refuse(
      rc,
      { cause: 'sandbox-limit', fixture: fixtureStart },
      new ApiError(422, 'sandbox_limit', { max_target_count: SANDBOX_MAX_TARGET }),
    );
  if (targetCount < 1)
    refuse(rc, { cause: 'target-count-below-one' }, new ApiError(422, 'invalid_request', { field: 'target_count' }));
  if (targetCount > PRODUCTION_MAX_TARGET) throw new ApiError(422, 'invalid_request', { field: 'target_count' });
  return { jobExternalId, actingUserId, targetCount, fixtureStart, submitted: body.requirements };
}

/** What the start runs: a fixture, or a job of the organization (its recruiter checked on the way). */
function startedWhat(rc: RequestContext, org: Organization, start: StartRequest): { fixture?: string; job?: Job } {
  const { app } = rc;
  const { faults, settings } = app.config;
  const { jobExternalId, actingUserId, fixtureStart } = start;
  // Inline, as it changes what starts: the fault lets a cert-* job created through POST /jobs run as a job.
  const reservedIgnored =
    fixtureStart &&
    !isFixtureName(jobExternalId) &&
    faults.has('fixtures.created-cert-job-runs') &&
    app.store.jobsOf(org.id).has(jobExternalId);
  const fixture = settings.fixtures && fixtureStart && !reservedIgnored ? jobExternalId : undefined;
  // The prefix is reserved: an unknown cert-* name must not fall through to the job lookup.
  if (fixture !== undefined && !isFixtureName(fixture))
    throw refusal(
      rc,
      { cause: 'unknown-fixture' },
      new ApiError(422, 'unknown_fixture', { fixtures: [...FIXTURE_NAMES] }),
    );
  if (!app.store.usersOf(org.id).has(actingUserId)) {
    const elsewhere = () => [...app.store.users.values()].some((m) => m.has(actingUserId));
    refuse(
      rc,
      { cause: 'unknown-user', elsewhere, fixture: fixture !== undefined },
      new ApiError(404, 'user_not_found'),
    );
  }
  const job = fixture
    ? undefined
    : (app.store.jobsOf(org.id).get(jobExternalId) ??
      // Inline, as it leaks across organizations: the job lookup ignores the organization.
      (faults.has('isolation.jobs-shared-across-orgs')
        ? [...app.store.jobs.values()].map((m) => m.get(jobExternalId)).find((j) => j !== undefined)
        : undefined));
  if (!fixture && !job) throw refusal(rc, { cause: 'unknown-job' }, new ApiError(404, 'job_not_found'));
  return { ...(fixture !== undefined ? { fixture } : {}), ...(job ? { job } : {}) };
}

/** The run's requirements and warnings; a refused start throws, unless a fault creates its run (`refused`). */
interface StartRequirements {
  requirements: EngineRequirement[] | undefined;
  warnings: RequirementIssue[];
  refused?: RequirementOutcome;
}

function startRequirements(
  rc: RequestContext,
  org: Organization,
  start: StartRequest,
  what: { fixture?: string; job?: Job },
): StartRequirements {
  const { app } = rc;
  const { faults } = app.config;
  const sandbox = isSandbox(rc);
  const { submitted, targetCount } = start;
  const { fixture, job } = what;
  let warnings: ReturnType<typeof validateRequirements>['warnings'] = [];
  let refused: ReturnType<typeof validateRequirements> | undefined;
  let requirements;
  if (submitted !== undefined) {
    const outcome = validateRequirements(submitted, {
      jobTitle: job?.title,
      locationText: job?.locationText,
      rules: app.config.requirementRules,
    });
    if (outcome.rejected.length > 0) {
      // Inline, as it changes state: the refused run is created all the same.
      if (faults.has('runs-start.rejected-run-created')) refused = outcome;
      else {
        // Inline, as it changes state: the refused start counts toward the run quota.
        if (sandbox && !fixture && faults.has('limits.quota-refused-422-count')) recordRealRun(org, app.now());
        // Inline, as it changes state: the refused start's run is written, then failed (run_failed is sent).
        if (job && faults.has('runs-start.rejected-start-runs-and-fails'))
          failedRunOfRefusedStart(rc, job.externalId, targetCount, outcome.requirements ?? []);
        // Variant runs-start.rejected-first-only: a validator that stops at the first offending requirement.
        // Variant runs-start.form-issues-first: a validator that checks each text's form before its
        // meaning, and reports only the form issues while there are any.
        const formIssues = outcome.rejected.filter((r) => FORM_ISSUES.has(r.code));
        const rejected = app.config.variants.has('runs-start.rejected-first-only')
          ? outcome.rejected.slice(0, 1)
          : app.config.variants.has('runs-start.form-issues-first') && formIssues.length > 0
            ? formIssues
            : outcome.rejected;
        throw new ApiError(422, 'requirements_rejected', { rejected, warnings: outcome.warnings });
      }
    }
    warnings = outcome.warnings;
    requirements = outcome.requirements;
    // Variant additive.requirement-issue-code: "new codes may be added" (RequirementIssue).
    if (
      app.config.variants.has('additive.requirement-issue-code') &&
      Array.isArray(submitted) &&
      submitted.length > 0
    ) {
      warnings = [
        ...warnings,
        {
          index: 0,
          code: 'zz_variant_issue',
          message_he: 'אזהרה חדשה שהלקוח עדיין אינו מכיר',
          message_en: 'A warning code this client does not know yet',
          suggestion_he: null,
          suggestion_en: null,
        },
      ];
    }
  } else if (job) {
    const derived = app.engine.deriveRequirements({
      title: job.title,
      descriptionText: job.descriptionText,
      locationText: job.locationText,
    });
    requirements = derivedRequirements(derived, job.title, app.config.requirementRules);
  }
  // Inline, as it changes what the run stores: a fixture run keeps the submitted requirements.
  if (fixture && !(submitted !== undefined && faults.has('fixtures.submitted-requirements-used')))
    requirements = FIXTURE_REQUIREMENTS.map((r) => ({ ...r }));

  return { requirements, warnings, ...(refused ? { refused } : {}) };
}

/** Counts the start toward the sandbox run quota, or refuses it with 429 when the quota is spent. */
function chargeQuota(rc: RequestContext, org: Organization, fixture: string | undefined, now: number): void {
  const { app } = rc;
  const { faults } = app.config;
  const sandbox = isSandbox(rc);
  // Inline, as it changes state: fixture runs count toward the run quota.
  const countsTowardQuota = sandbox && (!fixture || faults.has('limits.fixture-runs-count'));
  if (countsTowardQuota) {
    const retryAfter = quotaRetryAfter(org, now, app.config.timeScale);
    if (retryAfter !== undefined)
      throw refusal(
        rc,
        { cause: 'run-quota' },
        new ApiError(
          429,
          'sandbox_run_quota',
          { retry_after_seconds: retryAfter, limit: SANDBOX_RUN_QUOTA },
          { 'retry-after': String(retryAfter) },
        ),
      );
    recordRealRun(org, now);
  }
}

/** The run the start names: a new one, started on the engine or as a fixture, or (under a fault) an earlier one. */
function startedRun(
  rc: RequestContext,
  org: Organization,
  start: StartRequest,
  what: { fixture?: string; job?: Job },
  requirements: EngineRequirement[] | undefined,
  now: number,
): Run {
  const { app } = rc;
  const { faults } = app.config;
  const { jobExternalId, targetCount } = start;
  const { fixture, job } = what;
  // Inline, as it changes state: a repeated identical fixture start reuses the earlier run (an idempotency cache).
  const earlier =
    fixture && faults.has('runs-start.identical-start-same-run')
      ? [...app.store.runs.values()].find(
          (r) => r.organizationId === org.id && r.jobExternalId === jobExternalId && r.targetCount === targetCount,
        )
      : undefined;
  const run: Run =
    earlier ??
    newRunRecord(rc, {
      jobExternalId,
      requirements: requirements ?? [],
      targetCount,
      createdAt: now,
      fixture: fixture as Run['fixture'],
    });
  app.store.runs.set(run.id, run);
  if (earlier) {
    // nothing new to schedule: the earlier run goes on
  } else if (run.fixture) scheduleFixtureTerminal(rc, run);
  else if (job) {
    // Not a fixture, so the job was found (an unknown one is refused above).
    app.engine.startRun({
      runId: run.id,
      organizationId: org.id,
      job: {
        externalId: job.externalId,
        title: job.title,
        descriptionText: job.descriptionText,
        locationText: job.locationText,
      },
      requirements: run.requirements.map((r) => ({ ...r })),
      targetCount,
      startedAt: now,
    });
  }

  return run;
}

/** The 202 of a started run: its id, warnings and requirements (a fixture's with the members to ignore). */
function startedAnswer(rc: RequestContext, run: Run, warnings: RequirementIssue[]): Reply {
  const extra = run.fixture === 'cert-extra-fields';
  const response: Record<string, unknown> = {
    run_id: run.id,
    status: 'running',
    warnings,
    requirements: run.requirements.map((r) => {
      const item: Record<string, unknown> = { index: r.index, text: r.text, kind: r.kind, origin: r.origin };
      if (extra) item.zz_extra_requirement = true;
      return item;
    }),
  };
  if (run.fixture) response.sandbox = { fixture: run.fixture };
  if (extra) {
    response.zz_extra_top_level = 'clients must ignore this';
    response.zz_future_object = { nested: true };
  }
  return answer(rc, { status: 202, body: response }, run.fixture ? { fixture: run.fixture } : {});
}

/**
 * POST /runs: a run of `target_count` (1–100; at most 20 in the sandbox) for a job of the organization by
 * one of its recruiters, with the partner's requirements or ones derived from the job; a `cert-*` job id
 * starts a fixture run (Sandbox behaviour), which never counts toward the sandbox run quota.
 */
export function runsStartRoute(rc: RequestContext): Reply {
  const org = requireOrg(rc);
  const start = readStart(rc, jsonBody(rc));
  const what = startedWhat(rc, org, start);
  const { requirements, warnings, refused } = startRequirements(rc, org, start, what);
  const now = rc.app.now();
  chargeQuota(rc, org, what.fixture, now);
  const run = startedRun(rc, org, start, what, requirements, now);
  if (refused)
    throw new ApiError(422, 'requirements_rejected', {
      rejected: refused.rejected,
      warnings: refused.warnings,
      run_id: run.id,
    });
  return startedAnswer(rc, run, warnings);
}

/** Fixture runs end without the engine: at once, or after cert-slow's 3 (scaled) minutes. */
function scheduleFixtureTerminal(rc: RequestContext, run: Run): void {
  const { app } = rc;
  const emit = () => {
    if (!app.store.runs.has(run.id)) return;
    const state = currentState(app, run, 'en');
    if (state) emitTerminal(app, run, state.snapshot);
  };
  if (run.fixture === 'cert-slow') {
    const t = setTimeout(
      () => {
        app.timers.delete(t);
        emit();
      },
      SLOW_FIXTURE_MS / app.config.timeScale + 5,
    );
    t.unref();
    app.timers.add(t);
  } else if (app.store.partners.get(run.partnerId)?.webhookUrl !== undefined) {
    // Only when a webhook is registered: a fixture must not leave events waiting for a URL set later.
    emit();
  }
}

/** A run row of the caller's organization, with nothing revealed, decided or emitted yet. */
function newRunRecord(
  rc: RequestContext,
  fields: Pick<Run, 'jobExternalId' | 'requirements' | 'targetCount' | 'createdAt' | 'fixture'>,
): Run {
  return {
    id: newUuid(),
    organizationId: requireOrg(rc).id,
    partnerId: rc.partner.id,
    ...fields,
    quotedPrices: new Map(),
    revealEvents: new Set(),
    decisions: new Map(),
    noticesShown: new Set(),
    terminalEmitted: false,
    readCache: new Map(),
  };
}

/**
 * Fault runs-start.rejected-start-runs-and-fails: the run row is written (and queued) before the
 * requirements are validated; the worker then finds them invalid and fails the run, which emits
 * run_failed for the job, though the caller was answered 422 with no run_id.
 */
function failedRunOfRefusedStart(
  rc: RequestContext,
  jobExternalId: string,
  targetCount: number,
  requirements: Run['requirements'],
): void {
  const { app } = rc;
  const org = requireOrg(rc);
  const run = newRunRecord(rc, { jobExternalId, requirements, targetCount, createdAt: app.now(), fixture: undefined });
  if (isSandbox(rc)) recordRealRun(org, run.createdAt);
  emitTerminal(app, run, {
    status: 'failed',
    progress: { confirmed: 0, target: targetCount, screened: 0 },
    candidates: [],
    notices: [{ code: 'function_error', severity: 'blocking', slot: 'empty_state' }],
  });
}
