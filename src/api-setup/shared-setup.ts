// Shared setup, done once per certification: one organization, one recruiter, one job, fixture
// runs, one real run and the webhook trio, each a memoized step that every check awaiting it shares.
// Each step records its own exchanges; a check that awaited a step gets them attached ("setup: …") so
// a failure caused by setup is explained by the exchange that caused it. Every run start goes through
// here (the steps' own, and checks' through startRun), so the real runs the certification started are
// counted where they are started.

import { randomBytes } from 'node:crypto';
import { unparsedBodyPhrase } from '../http/answer.js';
import type { ApiClient, ApiResponse, RequestSpec } from '../http/types.js';
import { isJsonObject } from '../json/lossless.js';
import type { SetupProvider } from './check.js';
import type { ClientFactory } from '../runner/client-factory.js';
import type { CodePlan } from './code-plan.js';
import { withLazyJson } from '../runner/lazy-json.js';
import { describeRequest, renderValue } from '../runner/render.js';
import type { RecordedExchange } from '../runner/results.js';
import { SetupFailure } from './setup-failure.js';
import { SkipCheck } from '../runner/skip-check.js';
import { certificationOnly, GATE_REASONS } from './gate-profile.js';
import { S } from '../spec/sections.js';
import type { WebhookReceiver } from '../webhook/receiver.js';
import type {
  DerivedRun,
  JobHandle,
  OrgHandle,
  RunHandle,
  RunStartBody,
  SharedSetup,
  TypedRedemption,
  UserHandle,
} from './setup-view.js';
import { awaitTrioDeliveries, type TrioEntry } from './webhook-trio.js';
import { proveWebhookPath } from './webhook-path.js';
import type { RunReadJournal } from './run-read-journal.js';
import { abortableSleep } from '../runner/abortable-sleep.js';

export interface SharedSetupOptions {
  engine: ClientFactory;
  /** Where every client of `engine` keeps the reads of the runs watched (the shared real run). */
  journal?: RunReadJournal;
  baseUrl: string;
  /** --org-token: the primary organization already exists. */
  orgToken?: string;
  /** Activation codes planned by role (primary, typed, taken, fresh); its spare codes serve takeActivationCode(). */
  codes: CodePlan;
  /** --user-role: the `role` to register recruiters with; undefined = try "recruiter", then none. */
  userRole?: string;
  /** Called with every org token learned, so it is redacted from then on. */
  onSecret(orgToken: string): void;
  timeScale: number;
  /** The receiver test deliveries reach (the webhook trio step); absent without --webhook-secret. */
  receiver?: WebhookReceiver;
  /** What the webhook set-up proof names in its reasons: the registered URL, and whether none is said to be. */
  webhookPath?: { publicUrl: string; announcedUnregistered: boolean };
  signal: AbortSignal;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /**
   * The gate profile (--gate): no real run is started, so a check that asks for one is certification
   * only (api-setup/gate-profile.ts); nothing is sent for it.
   */
  gate?: boolean;
}

interface Step<T> {
  name: string;
  promise: Promise<T>;
  exchanges: RecordedExchange[];
  deps: Step<unknown>[];
}

const POLL_SPEC_MS = 5_000;
/** How far in the past occurredAt() starts: room for many distinct seconds before reaching "now". */
const OCCURRED_AT_LEAD_MS = 4 * 60_000;
/** Tried first when --user-role is not given: the word the spec uses for the users it registers. */
const GUESSED_ROLE = 'recruiter';

function isInvalidUser(res: ApiResponse): boolean {
  return res.status === 422 && isJsonObject(res.json) && res.json.error === 'invalid_user';
}
const POLL_LIMIT_SPEC_MS = 30 * 60_000;

export interface RealRunResult {
  run: RunHandle;
  reads: ApiResponse[];
  final: ApiResponse;
}

/** The certification-wide setup; `forCheck` gives each check its view of it. */
export class SharedSetupCore implements SetupProvider {
  readonly nonce = randomBytes(4).toString('hex');
  private counter = 0;
  private readonly steps = new Map<string, Step<unknown>>();
  private primaryToken: string | undefined;
  private realRuns = 0;
  /** Until the plan says otherwise, a cert-* job is a fixture (the sandbox's reading). */
  private environment: 'sandbox' | 'production' = 'sandbox';

  constructor(private opts: SharedSetupOptions) {
    this.primaryToken = opts.orgToken;
  }

  /** The primary organization's token once known (the HTTP engine's default org token). */
  orgToken(): string | undefined {
    return this.primaryToken;
  }

  /** Real runs this certification started: the shared one and those checks started through startRun. */
  realRunCount(): number {
    return this.realRuns;
  }

  uniqueId(prefix: string): string {
    this.counter += 1;
    return `${prefix}-${this.nonce}-${this.counter}`;
  }

  private lastStamp = 0;

  /** Whole seconds apart, increasing, starting 4 minutes in the past (see SharedSetup.occurredAt). */
  occurredAt(): string {
    const floor = Math.floor(Date.now() / 1000) * 1000 - OCCURRED_AT_LEAD_MS;
    this.lastStamp = Math.max(floor, this.lastStamp + 1000);
    return new Date(this.lastStamp).toISOString();
  }

  /**
   * The final activation-code plan and the environment, once the checks are planned: the environment
   * probes may have redeemed the primary code already, and every plan gives the primary the same
   * (first) code. The environment says whether a cert-* job is a fixture (sandbox) or a job like any
   * other (production), which startRun counts.
   */
  replan(codes: CodePlan, environment: 'sandbox' | 'production'): void {
    this.opts = { ...this.opts, codes };
    this.environment = environment;
  }

  takeSpareCode(): string | undefined {
    return this.opts.codes.spare.shift();
  }

  private step<T>(key: string, name: string, deps: Step<unknown>[], body: (api: ApiClient) => Promise<T>): Step<T> {
    const existing = this.steps.get(key);
    if (existing) return existing as Step<T>;
    const exchanges: RecordedExchange[] = [];
    // Steps keep their answers for the whole certification: large ones as text (lazy-json.ts).
    const api = withLazyJson(
      this.opts.engine.client((ex) => exchanges.push(ex), {
        signal: this.opts.signal,
        labelPrefix: `setup: ${name}`,
      }),
      this.opts.signal,
    );
    const step: Step<T> = { name, exchanges, deps, promise: body(api) };
    // A rejection is observed by whichever check awaits it; never an unhandled one.
    step.promise.catch(() => undefined);
    this.steps.set(key, step as Step<unknown>);
    return step;
  }

  orgStep(): Step<OrgHandle> {
    return this.step('org', 'org', [], async (api) => {
      if (this.opts.orgToken) return { orgToken: this.opts.orgToken, organizationExternalId: '' };
      const code = this.opts.codes.assigned.primary;
      if (!code) {
        throw new SkipCheck(
          'needs an organization: --org-token or SVC_ORG_TOKEN, or an activation code (--activation-code or SVC_ACTIVATION_CODES)',
          'needs-input',
          '--org-token or an activation code',
        );
      }
      const externalId = this.uniqueId('svc-certify-org');
      const res = await api.post(
        '/activations/redeem',
        { code, external_id: externalId },
        { auth: 'partner', label: 'redeem' },
      );
      refuseOperatorCode(res, code);
      const org = this.orgFrom(res, externalId, 'org (redeem an activation code)');
      this.primaryToken = org.orgToken;
      return org;
    });
  }

  /**
   * The planned 'typed' code redeemed as a person types it (lower case, spaces): the normalization
   * check reads this answer, the single-use check redeems the code again, and the organization is the
   * isolation checks' second. A refused typed form is the normalization check's failure, not the
   * isolation checks': the code as issued is then redeemed instead.
   */
  typedStep(): Step<TypedRedemption> {
    return this.step('typed', 'second org', [], async (api) => {
      const code = this.opts.codes.assigned.typed;
      if (code === undefined) {
        const short = this.opts.codes.shortage('typed');
        throw new SkipCheck(short.reason, short.kind, short.unlock);
      }
      const externalId = this.uniqueId('svc-certify-org');
      // As pasted, with surrounding spaces ("the code as typed, trimming optional"); a refusal is retried
      // without them, so surrounding spaces and the inner normalization are judged apart.
      const padded = await api.post(
        '/activations/redeem',
        { code: `  ${typedCodeForm(code)} `, external_id: externalId },
        { auth: 'partner', label: 'redeem a code as typed: lower case, spaces, surrounding spaces' },
      );
      if (padded.status === 200) {
        return {
          code,
          typed: padded,
          padded,
          org: this.orgFrom(padded, externalId, 'second org (redeem a code as typed)'),
        };
      }
      const typed = await api.post(
        '/activations/redeem',
        { code: typedCodeForm(code), external_id: externalId },
        { auth: 'partner', label: 'redeem the code as typed, without the surrounding spaces' },
      );
      if (typed.status === 200) {
        return { code, typed, padded, org: this.orgFrom(typed, externalId, 'second org (redeem a code as typed)') };
      }
      const issued = await api.post(
        '/activations/redeem',
        { code, external_id: externalId },
        { auth: 'partner', label: 'redeem the same code as issued' },
      );
      return {
        code,
        typed,
        padded,
        issued,
        org: this.orgFrom(issued, externalId, 'second org (redeem a code as issued)'),
      };
    });
  }

  secondOrgStep(): Step<TypedRedemption> {
    return this.typedStep();
  }

  private orgFrom(res: ApiResponse, externalId: string, step: string): OrgHandle {
    const body = isJsonObject(res.json) ? res.json : undefined;
    const token = body?.org_token;
    if (res.status !== 200 || typeof token !== 'string' || token === '') {
      throw new SetupFailure(step, this.wrong(res, '200 with an org_token'), S.redeem, res);
    }
    this.opts.onSecret(token);
    return {
      orgToken: token,
      organizationExternalId: externalId,
      organizationId: typeof body?.organization_id === 'string' ? body.organization_id : undefined,
      redemption: res,
    };
  }

  userStep(): Step<UserHandle> {
    const org = this.orgStep();
    return this.step('user', 'user', [org], async (api) => {
      await org.promise;
      const externalId = this.uniqueId('svc-certify-recruiter');
      // The allowed values of `role` are "not shown" (nor the conditions of invalid_user): a refusal of
      // a guess is no proof against the target. Without --user-role: a common role, then no role.
      const given = this.opts.userRole;
      const tries: Array<string | undefined> = given !== undefined ? [given] : [GUESSED_ROLE, undefined];
      let res: ApiResponse | undefined;
      let role: string | undefined;
      for (role of tries) {
        res = await api.post(
          '/users',
          {
            external_id: externalId,
            email: `recruiter-${this.nonce}@example.com`,
            full_name: 'Dana Levi',
            ...(role !== undefined ? { role } : {}),
          },
          { label: role !== undefined ? `register recruiter (role "${role}")` : 'register recruiter (no role)' },
        );
        if (!isInvalidUser(res)) break;
      }
      if (res && isInvalidUser(res)) {
        throw new SkipCheck(
          given !== undefined
            ? `needs a registered recruiter, and the target refused role "${given}" (from --user-role) with 422 invalid_user: give a role the target accepts with --user-role ROLE (SVC_USER_ROLE)`
            : `needs a registered recruiter, and the target refused role "${GUESSED_ROLE}" and a registration without role with 422 invalid_user; the allowed roles are not shown in v1: give one with --user-role ROLE (SVC_USER_ROLE)`,
          'needs-input',
          '--user-role',
        );
      }
      if (
        !res ||
        res.status < 200 ||
        res.status > 299 ||
        !isJsonObject(res.json) ||
        typeof res.json.user_id !== 'string'
      ) {
        throw new SetupFailure('user (register a recruiter)', this.wrong(res!, 'a 2xx with a user_id'), S.users, res);
      }
      return { externalId, ...(role !== undefined ? { role } : {}) };
    });
  }

  jobStep(): Step<JobHandle> {
    const org = this.orgStep();
    return this.step('job', 'job', [org], async (api) => {
      await org.promise;
      const job: JobHandle = {
        externalId: this.uniqueId('svc-certify-job'),
        title: 'Backend Engineer',
        descriptionText:
          'We are looking for a backend engineer to build and operate the services behind our hiring platform. ' +
          'You will design HTTP APIs, model data in PostgreSQL, write TypeScript on Node.js and own features from design to production. ' +
          'Three years of server-side experience and a habit of writing tests are expected.',
        locationText: 'Tel Aviv, Israel',
      };
      const res = await api.post(
        '/jobs',
        {
          external_id: job.externalId,
          title: job.title,
          description_text: job.descriptionText,
          location_text: job.locationText,
        },
        { label: 'create job' },
      );
      if (res.status < 200 || res.status > 299 || !isJsonObject(res.json) || typeof res.json.job_id !== 'string') {
        throw new SetupFailure('job (create a job)', this.wrong(res, 'a 2xx with a job_id'), S.jobs, res);
      }
      return { ...job, jobId: res.json.job_id, response: res };
    });
  }

  fixtureRunStep(fixture: string, lang: 'he' | 'en' | undefined, targetCount: number): Step<RunHandle> {
    const user = this.userStep();
    const name = `fixture ${fixture}${lang ? ` (${lang})` : ''}`;
    return this.step(`fixture:${fixture}:${lang ?? ''}:${targetCount}`, name, [user], async (api) => {
      const u = await user.promise;
      const res = await api.post(
        '/runs',
        { job_external_id: fixture, acting_user_external_id: u.externalId, target_count: targetCount },
        { lang, label: `start ${fixture}`, ...(fixture === 'cert-slow' ? { priority: 'high' as const } : {}) },
      );
      // Any 2xx with a run_id is a started run: whether it was the 202 the spec gives is the
      // fixtures.*.start-accepted-202 checks' own assertion, not every fixture check's setup failure.
      return { runId: this.startedRunId(res, `${name} (start the fixture run)`, true), start: res };
    });
  }

  realRunStep(): Step<RealRunResult> {
    const user = this.userStep();
    const job = this.jobStep();
    return this.step('real-run', 'real run', [user, job], async (api) => {
      const [u, j] = await Promise.all([user.promise, job.promise]);
      const res = await api.post(
        '/runs',
        {
          job_external_id: j.externalId,
          acting_user_external_id: u.externalId,
          target_count: 5,
          // Padded and doubled whitespace on purpose: runs-start checks that the 202 returns them
          // trimmed and collapsed (and the title appended) without spending another real run.
          requirements: [
            { text: '  TypeScript ', kind: 'must' },
            { text: 'PostgreSQL \t and   Node.js', kind: 'nice' },
          ],
        },
        { label: 'start real run', priority: 'high' },
      );
      this.skipOnRunQuota(res);
      const runId = this.startedRunId(res, 'real run (start a run of the shared job)');
      this.realRuns += 1;
      this.opts.journal?.watch(runId);
      const reads: ApiResponse[] = [];
      const started = Date.now();
      const limitMs = POLL_LIMIT_SPEC_MS / this.opts.timeScale;
      let final: ApiResponse | undefined;
      for (;;) {
        const read = await api.get(`/runs/${encodeURIComponent(runId)}`, {
          label: `read run #${reads.length + 1}`,
          priority: 'high',
        });
        reads.push(read);
        if (read.status === 200) final = read;
        const status = isJsonObject(read.json) ? read.json.status : undefined;
        if (read.status === 200 && (status === 'completed' || status === 'failed')) break;
        if (this.opts.signal.aborted || Date.now() - started >= limitMs) break;
        await this.sleep(POLL_SPEC_MS / this.opts.timeScale);
      }
      if (!final) {
        const last = reads[reads.length - 1]!;
        throw new SetupFailure('real run (read the run)', this.wrong(last, '200 with the run'), S.runsRead, last);
      }
      return { run: { runId, start: res }, reads, final };
    });
  }

  /**
   * The second real run, on a twin of the shared job (same title, description and location, its own
   * external_id: a service may put candidates already shown for a job last, and a twin finds the same
   * ones), its title submitted as requirement 0 (so the title is not appended again: runs-start checks
   * the 202), then the first run's requirements: the two runs search alike and list candidates in
   * common, whose sandbox pseudonyms must agree. Started, not followed: a check reads it when it needs
   * its list.
   */
  secondRealRunStep(): Step<RunHandle> {
    const user = this.userStep();
    const job = this.jobStep();
    return this.step('second-real-run', 'second real run', [user, job], async (api) => {
      const [u, j] = await Promise.all([user.promise, job.promise]);
      const twin = this.uniqueId('svc-certify-twin-job');
      const created = await api.post(
        '/jobs',
        { external_id: twin, title: j.title, description_text: j.descriptionText, location_text: j.locationText },
        { label: 'create a twin of the shared job' },
      );
      if (created.status < 200 || created.status > 299) {
        throw new SetupFailure(
          'second real run (create a twin of the shared job)',
          this.wrong(created, 'a 2xx'),
          S.jobs,
          created,
        );
      }
      const res = await api.post(
        '/runs',
        {
          job_external_id: twin,
          acting_user_external_id: u.externalId,
          target_count: 5,
          requirements: secondRunRequirements(j.title),
        },
        { label: 'start the second real run (job title submitted)' },
      );
      this.skipOnRunQuota(res);
      const runId = this.startedRunId(res, 'second real run (start a run of the shared job, its title submitted)');
      this.realRuns += 1;
      return { runId, start: res };
    });
  }

  /**
   * The third real run, arranged to end short of its target: the shared job with target_count 20 (the
   * sandbox's highest) and two narrow musts few profiles meet (a spoken language and a framework; the
   * title is appended as the third). Whether a run stops short is the service's own outcome, so the
   * check that reads it is conditional; this run is the certifier's best arrangement to see one. It is a
   * run of its own because the second real run must search like the first (its candidates are compared
   * with the first run's). Started, not followed: the check that needs it reads it to its end.
   */
  shortRealRunStep(): Step<RunHandle> {
    const user = this.userStep();
    const job = this.jobStep();
    return this.step('short-real-run', 'short real run', [user, job], async (api) => {
      const [u, j] = await Promise.all([user.promise, job.promise]);
      const res = await api.post(
        '/runs',
        {
          job_external_id: j.externalId,
          acting_user_external_id: u.externalId,
          target_count: SHORT_RUN_TARGET,
          requirements: SHORT_RUN_REQUIREMENTS,
        },
        { label: 'start the short real run (target 20, narrow musts)' },
      );
      this.skipOnRunQuota(res);
      const runId = this.startedRunId(res, 'short real run (start a run of the shared job with narrow musts)');
      this.realRuns += 1;
      this.opts.journal?.watch(runId);
      return { runId, start: res };
    });
  }

  /**
   * The derived run: a job of its own (DERIVED_RUN_JOB, a description that states skills and a years
   * minimum, so a service that derives requirements has something to derive), started without
   * `requirements` and target 1. The job is created with another description first (FIRST_DESCRIPTION)
   * and sent again with its own before the start, so the requirements derived at the start show which
   * description a repeat POST /jobs left stored. A job of its own because the kept-description check
   * replaces its description afterwards. The start's answer is returned as it came: whether it is the
   * 202 the spec gives is the reading checks' assertion.
   */
  derivedRunStep(): Step<DerivedRun> {
    const user = this.userStep();
    return this.step('derived-run', 'derived run', [user], async (api) => {
      const u = await user.promise;
      const job: JobHandle = { externalId: this.uniqueId('svc-certify-job'), ...DERIVED_RUN_JOB };
      const sendJob = async (descriptionText: string, label: string, step: string) => {
        const res = await api.post(
          '/jobs',
          {
            external_id: job.externalId,
            title: job.title,
            description_text: descriptionText,
            location_text: job.locationText,
          },
          { label },
        );
        if (res.status < 200 || res.status > 299) {
          throw new SetupFailure(`derived run (${step})`, this.wrong(res, 'a 2xx'), S.jobs, res);
        }
        return res;
      };
      const created = await sendJob(
        FIRST_DESCRIPTION,
        'create a job for a run without requirements (with a first description)',
        'create a job',
      );
      const repeat = await sendJob(
        job.descriptionText,
        'the same job again with the description the run starts from',
        'replace the description',
      );
      // No requirements: "when omitted, requirements are derived from the job description". Target 1:
      // one listed candidate shows the requirements the run uses.
      const start = await this.startRun(
        api,
        { job_external_id: job.externalId, acting_user_external_id: u.externalId, target_count: 1 },
        { label: 'start a run of the job without requirements (derived from its description)' },
      );
      this.skipOnRunQuota(start);
      return { job: { ...job, response: created }, firstDescriptionText: FIRST_DESCRIPTION, repeat, start };
    });
  }

  /**
   * The sandbox allows 20 real runs per organization a day: a reused --org-token can run out, and the
   * 429 is then the spec's own answer, not a fault of the target.
   */
  private skipOnRunQuota(res: ApiResponse): void {
    if (res.status !== 429 || !isJsonObject(res.json) || res.json.error !== 'sandbox_run_quota') return;
    const wait = res.json.retry_after_seconds;
    throw new SkipCheck(
      `needs a real run, and the organization's daily sandbox run quota is used up (429 sandbox_run_quota${typeof wait === 'number' ? `, retry after ${wait} s` : ''}): certify with a fresh --activation-code instead of --org-token, or later`,
      'needs-input',
      'a fresh --activation-code (the run quota is used up)',
    );
  }

  /**
   * A run start a check makes itself (recorded by the check's own client), counted as a real run when
   * the target started one: a 2xx naming a run_id for a job that is not a sandbox fixture.
   */
  async startRun(
    api: ApiClient,
    body: RunStartBody,
    opts: Omit<RequestSpec, 'method' | 'path' | 'body'>,
  ): Promise<ApiResponse> {
    const res = await api.post('/runs', body, opts);
    const fixture =
      this.environment === 'sandbox' &&
      typeof body.job_external_id === 'string' &&
      body.job_external_id.startsWith('cert-');
    const runId = isJsonObject(res.json) ? res.json.run_id : undefined;
    if (!fixture && res.status >= 200 && res.status <= 299 && typeof runId === 'string' && runId !== '')
      this.realRuns += 1;
    return res;
  }

  /**
   * The webhook trio (webhook-trio.ts), once the primary organization exists: the test route carries
   * its token. Skips the check without a receiver (every check that reads it needs 'webhook-receiver').
   */
  webhookTrioStep(): Step<TrioEntry[]> {
    const path = this.webhookPathStep();
    return this.step('webhook-trio', 'webhook trio', [path], async () => {
      const entries = await path.promise;
      const rx = this.opts.receiver;
      return rx ? awaitTrioDeliveries(entries, rx, this.opts.timeScale, this.opts.signal) : entries;
    });
  }

  /**
   * The webhook set-up proof (webhook-path.ts): the trio's test events sent, and the first delivery
   * of any of them seen, before a check that waits on deliveries may blame the target. The sandbox's
   * test route is the only way to send an event on demand: against production there is nothing to send
   * and the proof resolves at once (its deliveries come from real runs, judged as before).
   */
  webhookPathStep(): Step<TrioEntry[]> {
    const org = this.orgStep();
    // Labelled as the trio: its requests are the trio's test events, awaited by every trio reader too.
    return this.step('webhook-path', 'webhook trio', [org], async (api) => {
      const rx = this.opts.receiver;
      if (!rx)
        throw new SkipCheck(
          'needs a webhook receiver: --webhook-secret or SVC_WEBHOOK_SECRET',
          'needs-input',
          '--webhook-secret (with --webhook-public-url)',
        );
      await org.promise;
      if (this.environment === 'production') return [];
      return proveWebhookPath(
        api,
        rx,
        {
          publicUrl: this.opts.webhookPath?.publicUrl ?? '(the registered URL)',
          announcedUnregistered: this.opts.webhookPath?.announcedUnregistered ?? false,
          timeScale: this.opts.timeScale,
        },
        this.opts.signal,
      );
    });
  }

  private startedRunId(res: ApiResponse, step: string, anySuccess = false): string {
    const runId = isJsonObject(res.json) ? res.json.run_id : undefined;
    const started = anySuccess ? res.status >= 200 && res.status <= 299 : res.status === 202;
    if (!started || typeof runId !== 'string' || runId === '') {
      throw new SetupFailure(step, this.wrong(res, '202 with a run_id'), S.runsStart, res);
    }
    return runId;
  }

  private wrong(res: ApiResponse, wanted: string): string {
    const req = describeRequest(res.exchange.request.method, res.exchange.request.url, this.opts.baseUrl);
    if (res.status === 0)
      return `${req} got no HTTP answer (${res.transportError?.code ?? 'transport error'}); expected ${wanted}`;
    const err = isJsonObject(res.json) && typeof res.json.error === 'string' ? ` ${renderValue(res.json.error)}` : '';
    const unparsed =
      res.json === undefined && res.jsonError !== undefined && res.jsonError !== 'empty body'
        ? unparsedBodyPhrase(res.jsonError)
        : '';
    return `${req} answered ${res.status}${err}${unparsed}; expected ${wanted}`;
  }

  private sleep(ms: number): Promise<void> {
    if (this.opts.sleep) return this.opts.sleep(ms, this.opts.signal);
    return abortableSleep(ms, this.opts.signal);
  }

  /** A step the gate profile does not take: the check asking for it is certification only. */
  private outsideGate<T>(why: string, take: () => Promise<T>): Promise<T> {
    if (!this.opts.gate) return take();
    const skip = certificationOnly(why);
    return Promise.reject(new SkipCheck(skip.reason, skip.kind));
  }

  /**
   * Each check's view: same memoized steps; awaited steps' exchanges attached to the check. `api` is the
   * check's own client: the runs it starts through startRun are recorded in the check, not as setup.
   * `paused` wraps every wait on a step (the engine stops the check's time budget meanwhile).
   */
  forCheck(
    attach: (exchanges: RecordedExchange[]) => void,
    reservedCodes: string[],
    api: ApiClient,
    paused: <T>(step: () => Promise<T>) => Promise<T> = (step) => step(),
  ): SharedSetup {
    const attached = new Set<Step<unknown>>();
    const collect = (step: Step<unknown>, out: RecordedExchange[]): void => {
      for (const dep of step.deps) collect(dep, out);
      if (attached.has(step)) return;
      attached.add(step);
      out.push(...step.exchanges);
    };
    const attachedAwait = async <T>(step: Step<T>): Promise<T> => {
      try {
        return await step.promise;
      } finally {
        const out: RecordedExchange[] = [];
        collect(step as Step<unknown>, out);
        if (out.length > 0) attach(out);
      }
    };
    const awaitStep = <T>(step: () => Step<T>): Promise<T> => paused(() => attachedAwait(step()));
    const codes = [...reservedCodes];
    return {
      org: () => awaitStep(() => this.orgStep()),
      secondOrg: () => paused(async () => (await attachedAwait(this.secondOrgStep())).org),
      typedRedemption: () => awaitStep(() => this.typedStep()),
      plannedCode: (role) => this.opts.codes.assigned[role],
      codeShortage: (role) => this.opts.codes.shortage(role),
      user: () => awaitStep(() => this.userStep()),
      job: () => awaitStep(() => this.jobStep()),
      fixtureRun: (fixture, o) => awaitStep(() => this.fixtureRunStep(fixture, o?.lang, o?.targetCount ?? 10)),
      realRun: () => this.outsideGate(GATE_REASONS.realRun, () => awaitStep(() => this.realRunStep())),
      secondRealRun: () => this.outsideGate(GATE_REASONS.moreRealRuns, () => awaitStep(() => this.secondRealRunStep())),
      shortRealRun: () => this.outsideGate(GATE_REASONS.moreRealRuns, () => awaitStep(() => this.shortRealRunStep())),
      derivedRun: () => this.outsideGate(GATE_REASONS.moreRealRuns, () => awaitStep(() => this.derivedRunStep())),
      // Through the check's api: its request is paused like any other.
      startRun: (body, opts) => this.startRun(api, body, opts ?? {}),
      webhookTrio: () => awaitStep(() => this.webhookTrioStep()),
      webhookPath: async () => {
        await awaitStep(() => this.webhookPathStep());
      },
      takeActivationCode: () => codes.shift() ?? this.takeSpareCode(),
      uniqueId: (prefix) => this.uniqueId(prefix),
      occurredAt: () => this.occurredAt(),
      // The reads other checks made are attached too: a failure cites the read that shows it.
      runReads: (runId) => {
        const reads = this.opts.journal?.reads(runId) ?? [];
        if (reads.length > 0) attach(reads.map((r) => r.res.exchange));
        return reads;
      },
      waitTurn: (turn) => paused(turn),
    };
  }
}

/** The refusals the spec gives a code that cannot be redeemed, and what each says about the operator's code. */
const CODE_REFUSALS: Record<string, string> = {
  code_not_found: 'the target does not know it (a typo, or a code of another environment or partner)',
  code_already_redeemed: 'it was redeemed before (codes are single-use: a previous run, or a person, used it)',
  code_expired: 'it is past its validity period',
};

/**
 * The primary organization's code is the operator's input: the target refusing it with the spec's own
 * answer for an unusable code is a set-up finding (give an unused code), not the target's failure. Any
 * other refusal is judged as before (a SetupFailure of the org step).
 */
function refuseOperatorCode(res: ApiResponse, code: string): void {
  const error = isJsonObject(res.json) && typeof res.json.error === 'string' ? res.json.error : undefined;
  const why = error !== undefined && Object.hasOwn(CODE_REFUSALS, error) ? CODE_REFUSALS[error] : undefined;
  if (why === undefined || res.status < 400 || res.status > 499) return;
  throw new SkipCheck(
    `set-up: the activation code ${code.slice(0, 8)}… given for the certification's organization was refused with ${res.status} ${error}: ${why}; give an unused code (--activation-code or SVC_ACTIVATION_CODES) or an org token (--org-token); not blamed on the target`,
    'set-up',
    'an unused activation code',
  );
}

/**
 * The derived run's job: its description states a years minimum and four skills, so a service that
 * derives requirements from a description derives some (the kept-description check replaces it with one
 * that derives others).
 */
const DERIVED_RUN_JOB: Omit<JobHandle, 'externalId'> = {
  title: 'Backend Engineer',
  locationText: 'Tel Aviv, Israel',
  descriptionText:
    'We are looking for a backend engineer to build the services behind our hiring platform. You will design HTTP APIs ' +
    'in TypeScript on Node.js and model data in PostgreSQL. At least 4 years of server-side experience are expected.',
};

/**
 * The description the derived run's job is created with before a repeat POST /jobs replaces it with
 * DERIVED_RUN_JOB's: other skills (Kafka, Redis) and another years minimum (9), so requirements derived
 * at the start from the replaced description can be told from those of the current one.
 */
const FIRST_DESCRIPTION =
  'We are looking for a backend engineer to run the event pipelines of our hiring platform. You will write Kafka ' +
  'consumers and tune Redis caches. At least 9 years of server-side experience are expected.';

/** The short real run's target: the sandbox's highest, more than its narrow musts leave in a pool. */
const SHORT_RUN_TARGET = 20;
/** Two narrow musts (the title is appended as the third) and a nice: few profiles meet them all. */
const SHORT_RUN_REQUIREMENTS: ReadonlyArray<{ text: string; kind: 'must' | 'nice' }> = [
  { text: 'French', kind: 'must' },
  { text: 'React', kind: 'must' },
  { text: 'TypeScript', kind: 'nice' },
];

/**
 * The second real run's requirements: the job's title as a must, then the first run's own requirements
 * as the service keeps them (trimmed, collapsed). Both runs then search with the same list (the first
 * run gets the title appended), so a service that ranks in any way of its own finds the same
 * candidates for both: only then can their pseudonyms be compared.
 */
export function secondRunRequirements(title: string): Array<{ text: string; kind: 'must' | 'nice' }> {
  return [
    { text: title, kind: 'must' },
    { text: 'TypeScript', kind: 'must' },
    { text: 'PostgreSQL and Node.js', kind: 'nice' },
  ];
}

/** The code as a person might type it: lower case, spaces instead of dashes ("svc abcd efgh"). */
function typedCodeForm(code: string): string {
  const compact = code.toUpperCase().replace(/[^A-Z0-9]/g, '');
  const m = /^SVC([A-Z0-9]{4})([A-Z0-9]{4})$/.exec(compact);
  if (m) return `svc ${m[1]!.toLowerCase()} ${m[2]!.toLowerCase()}`;
  return code.toLowerCase().replace(/-/g, ' ');
}
