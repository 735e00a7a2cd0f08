// What a check of `run` may await of the certification's shared setup (shared-setup.ts builds it):
// the organizations, the recruiter, the job, the fixture and real runs, the webhook trio, the planned
// activation codes. The engine hands it to each check as `t.setup` without knowing its shape.

import type { ApiResponse, RequestSpec } from '../http/types.js';
import type { SkipDecision } from '../runner/outcome.js';
import type { TrioEntry } from './webhook-trio.js';
import type { JournaledRead } from './run-read-journal.js';

export interface OrgHandle {
  orgToken: string;
  organizationExternalId: string;
  organizationId?: string;
  /** The 200 answer of the redeem that created it (absent for --org-token). */
  redemption?: ApiResponse;
}

/** The planned code redeemed as a person types it; its organization is the isolation checks' second. */
export interface TypedRedemption {
  /** The code as issued (canonical form). */
  code: string;
  /**
   * The answer to the typed form (lower case, spaces instead of dashes): sent first with surrounding
   * spaces, then, when that was refused, without them.
   */
  typed: ApiResponse;
  /** The answer to the typed form with surrounding spaces (the first attempt; `typed` itself when it redeemed). */
  padded: ApiResponse;
  /** When the typed form was refused: the answer to the code as issued, which must then redeem. */
  issued?: ApiResponse;
  org: OrgHandle;
}

export interface UserHandle {
  externalId: string;
  /**
   * The `role` the target accepted for the shared recruiter (--user-role, else a guess), or undefined
   * when it was registered without one. Checks that register recruiters send the same (the allowed
   * values of `role` are not shown in the spec, so no check may depend on a guess of its own).
   */
  role?: string;
}

export interface JobHandle {
  externalId: string;
  title: string;
  descriptionText: string;
  locationText: string;
  jobId?: string;
  /** The 2xx answer that created it. */
  response?: ApiResponse;
}

export interface RunHandle {
  runId: string;
  /** The 202 response of the start. */
  start: ApiResponse;
}

/** The derived run: a job of its own and the answer to a start of it that sent no requirements. */
export interface DerivedRun {
  /** The job as the run starts from it (`response`: the answer that created it). */
  job: JobHandle;
  /** The description the job was created with, replaced by `repeat` before the start. */
  firstDescriptionText: string;
  /** The answer to the repeat POST /jobs that replaced the first description with `job.descriptionText`. */
  repeat: ApiResponse;
  /** The answer to POST /runs without `requirements` (judged by the checks that read it, not by the setup). */
  start: ApiResponse;
}

/** The body of POST /runs as a check sends it (fields may be missing or wrong on purpose). */
export type RunStartBody = Record<string, unknown>;

/** Shared setup, done once per certification and reused by every check (memoized, concurrency-safe). */
export interface SharedSetup {
  org(): Promise<OrgHandle>;
  /** A second organization (for isolation checks); undefined when no code is left for it. */
  secondOrg(): Promise<OrgHandle | undefined>;
  user(): Promise<UserHandle>;
  job(): Promise<JobHandle>;
  /** Starts (once per distinct arguments) a fixture run: `cert-notices-all`, `cert-slow`, … */
  fixtureRun(fixture: string, opts?: { lang?: 'he' | 'en'; targetCount?: number }): Promise<RunHandle>;
  /** One real (engine) run of the shared job with requirements, followed to a terminal state. */
  realRun(): Promise<{ run: RunHandle; reads: ApiResponse[]; final: ApiResponse }>;
  /** A second real run of the shared job, its title submitted as requirement 0, target 20 with narrow musts (started, not polled). */
  secondRealRun(): Promise<RunHandle>;
  /**
   * A real run of a job of its own started without requirements (so the service derives them from the
   * job description), target 1; started, not followed. Its 202 serves every check that judges derived
   * requirements, so one real run is spent for them all.
   */
  derivedRun(): Promise<DerivedRun>;
  /** A third real run arranged to end short of its target (target 20, narrow musts; started, not followed). */
  shortRealRun(): Promise<RunHandle>;
  /**
   * POST /runs through the check's own client (recorded in the check): the way a check starts a run
   * that may be real, so the certification's real-run count (the budget) includes it.
   */
  startRun(body: RunStartBody, opts?: Omit<RequestSpec, 'method' | 'path' | 'body'>): Promise<ApiResponse>;
  /**
   * The webhook trio: one test event of each kind and its first delivery (webhook-trio.ts),
   * sent once per certification; every check that awaits it carries its exchanges. Skips without a receiver.
   */
  webhookTrio(): Promise<TrioEntry[]>;
  /**
   * The webhook set-up proven (webhook-path.ts): a test event reached the listener. Every check that
   * waits on a delivery awaits it first; a set-up mistake skips the check (set-up) instead of failing it.
   */
  webhookPath(): Promise<void>;
  /** The typed redemption (need 'typed-redemption' or 'second-org'); skips the check when no code is planned. */
  typedRedemption(): Promise<TypedRedemption>;
  /** The code planned for a role (need 'taken-redemption' → 'taken', 'fresh-org' → 'fresh'), or undefined. */
  plannedCode(role: 'taken' | 'fresh'): string | undefined;
  /** Why no code is planned for a role: how many more codes unlock what. */
  codeShortage(role: 'typed' | 'taken' | 'fresh'): SkipDecision;
  /** Takes an unused activation code not taken before, or undefined when none is left. */
  takeActivationCode(): string | undefined;
  /** A unique, readable id for this certification: `${prefix}-${nonce}-${n}`. */
  uniqueId(prefix: string): string;
  /**
   * A timestamp (ISO 8601, UTC) no other call of this certification returns, distinct from every other
   * by whole seconds: a target may store `occurred_at` at second precision (the spec states none), and
   * two values 1 ms apart would then be one. Increasing, a few minutes in the past (the spec's "when
   * the recruiter acted"; decisions are sent within 5 minutes).
   */
  occurredAt(): string;
  /**
   * Every read of a watched run (the shared and the short real run) made so far, by the setup or any
   * check, in the order the answers came (run-read-journal.ts), their exchanges attached to the check.
   * A check with `afterOthers` sees every read the certification made.
   */
  runReads(runId: string): JournaledRead[];
  /**
   * Waits for another check to be done with something the certification has once (the burst lane of
   * the limits checks), the check's time budget stopped meanwhile, as for a shared step.
   */
  waitTurn<T>(turn: () => Promise<T>): Promise<T>;
}
