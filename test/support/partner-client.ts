// A scripted partner integration for `svc-certify partner`: the server side of a partner's client (it
// connects a customer, registers a recruiter, starts fixture and real runs, polls, reports decisions)
// and its webhook endpoint, over real HTTP. By default it follows every rule of the spec; each habit
// switches on exactly one bad habit, so that the matrix can show each rule fails on its own.

import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Habits {
  /** Polls a running run every this many spec ms instead of 5 000. */
  pollEveryMs?: number;
  /** The recruiter leaves the page after this many reads (polling stops: conformant). */
  leaveAfterReads?: number;
  /** Keeps polling a run that has been running for more than 30 minutes (spec time). */
  pollPast30Min?: boolean;
  /** Keeps polling five more times after completed. */
  pollAfterCompletion?: boolean;
  /** A retry loop retries the run start that answered 500 at once, until it is accepted. */
  retryRunStartAfter500?: boolean;
  /** The recruiter reads the 500 of a run start and starts it again by hand once, a few seconds later. */
  restartByHandOnce?: boolean;
  /** Follows runs by webhook only (reads a run when its webhook arrives) and resends failed decisions from an outbox, minutes later. */
  webhookFirst?: boolean;
  /** Writes occurred_at as local time (UTC+3) followed by Z. */
  occurredAtLocalAsUtc?: boolean;
  /** Sends the recruiter's later note alone, without its decision. */
  noteWithoutDecision?: boolean;
  /** Retries after 429 with the 1 s backoff, ignoring Retry-After. */
  ignoreRetryAfter?: boolean;
  /** Retries the run start refused with 422. */
  retry422?: boolean;
  /** Sends the org token in a query string as well. */
  orgTokenInQuery?: boolean;
  /** Reports only the notice codes it recognizes. */
  omitUnknownNotices?: boolean;
  /** Retries a failed read at once, without backoff. */
  noBackoff?: boolean;
  /** Redeems the code again after the lost answer. */
  retryRedeem?: boolean;
  /** Keeps using an org token refused with 401 invalid_org_token. */
  reuseRefusedOrgToken?: boolean;
  /** Sends a reject_reason with a shortlisting. */
  reasonOnShortlist?: boolean;
  /** Reports only the unknown notice codes. */
  omitKnownNotices?: boolean;
  /** Gives a failing read a fourth attempt. */
  fourAttempts?: boolean;
  /** Copies the partner key into the body of a job. */
  keyInBody?: boolean;
  /** Posts the job as text/plain. */
  jobAsTextPlain?: boolean;
  /** The webhook endpoint acknowledges a bad signature with 200. */
  ackBadSignature?: boolean;
  /** The webhook endpoint answers valid deliveries with a redirect. */
  redirectWebhooks?: boolean;
  /** The webhook endpoint answers valid deliveries with 500. */
  failWebhooks?: boolean;
  /** Creates its job without x-partner-key. */
  noPartnerKeyOnJob?: boolean;
  /** Creates its job without x-svc-org. */
  noOrgTokenOnJob?: boolean;
  /** Sends x-svc-lang: en-US. */
  langEnUs?: boolean;
  /** Sends the job description as HTML. */
  htmlDescription?: boolean;
  /** Retries a reveal refused with 402 insufficient_credits. */
  retryAfter402?: boolean;
  /** Retries decisions with a fresh occurred_at (the time of sending, not of the action). */
  newOccurredAtOnRetry?: boolean;
  /** After a decisions 422, resends only the fixed item. */
  dropValidAfter422?: boolean;
  /** Stops polling on a run status it does not know. */
  stopOnUnknownStatus?: boolean;
  /** Gives up on a 5xx whose error code it does not know. */
  giveUpOnUnknownErrorCode?: boolean;
  /** A job queue retries the run start that answered 500, three minutes (spec time) later. */
  retryRunStartLater?: boolean;
  /** Reads candidate ids into doubles (JSON.parse) and sends them back rounded above 2^53. */
  floatIds?: boolean;
  /** Adds its org token to every call, the redeem of another customer included. */
  orgTokenOnRedeem?: boolean;
  /** Stops its flow on a run whose answers carry fields it does not know. */
  chokeOnExtraFields?: boolean;
  /** Sends the recruiter's later note with the occurred_at of the decision it follows. */
  reuseOccurredAtForNote?: boolean;
  /** Gives up on a decisions call that failed or lost its answer. */
  dropFailedDecisions?: boolean;
  /** Acts on every valid run_completed delivery, one repeating an event_id already handled included. */
  actOnRepeatedEvent?: boolean;
}

/** A JSON body written by hand (ids kept digit for digit). */
class RawJson {
  constructor(readonly text: string) {}
}

/** Candidate ids of a run read, as written in the answer (int64: never through a double). */
function candidateIdTokens(text: string): string[] {
  const at = text.indexOf('"candidates"');
  if (at < 0) return [];
  return [...text.slice(at).matchAll(/"id"\s*:\s*(\d+)/g)].map((m) => m[1]!);
}

export interface Provision {
  base_url: string;
  partner_key: string;
  webhook_secret: string;
  activation_codes: string[];
}

interface Answer {
  status: number;
  headers: Headers;
  json: Record<string, unknown>;
  text: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The partner's webhook endpoint: verifies the signature over the raw bytes and answers 2xx or 401. */
export class PartnerWebhookEndpoint {
  private server: Server;
  secret = '';
  received: Array<{ status: number; valid: boolean; event?: string; runId?: string }> = [];
  url = '';
  private waiters: Array<{ runId: string; resolve: () => void }> = [];
  /** Told of each run_completed to act on: once per event_id (Events: "Receivers de-duplicate on event_id"). */
  onRunCompleted: ((runId: string) => void) | undefined;
  private readonly handledEvents = new Set<string>();

  /** Resolves when a valid delivery for `runId` arrives (or has arrived), or after `timeoutMs`. */
  delivery(runId: string, timeoutMs: number): Promise<boolean> {
    if (this.received.some((r) => r.valid && r.runId === runId && r.status < 300)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.waiters.push({
        runId,
        resolve: () => {
          clearTimeout(timer);
          resolve(true);
        },
      });
    });
  }

  constructor(private readonly habits: Habits) {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const expected = Buffer.from(`sha256=${createHmac('sha256', this.secret).update(body).digest('hex')}`);
        const got = Buffer.from(String(req.headers['x-svc-signature'] ?? ''));
        const valid = got.length === expected.length && timingSafeEqual(got, expected);
        let status = valid ? 200 : 401;
        if (!valid && this.habits.ackBadSignature) status = 200;
        if (valid && this.habits.redirectWebhooks) status = 302;
        if (valid && this.habits.failWebhooks) status = 500;
        let event: { event?: string; run_id?: string; event_id?: string } = {};
        try {
          event = JSON.parse(body.toString('utf8')) as typeof event;
        } catch {
          // not JSON: recorded without its event
        }
        this.received.push({
          status,
          valid,
          ...(event.event ? { event: event.event } : {}),
          ...(event.run_id ? { runId: event.run_id } : {}),
        });
        res.writeHead(status, status === 302 ? { location: '/elsewhere' } : {});
        res.end();
        // The partner's server acts on the notification after acknowledging it.
        if (valid && status < 300 && event.run_id) {
          const ready = this.waiters.filter((w) => w.runId === event.run_id);
          this.waiters = this.waiters.filter((w) => w.runId !== event.run_id);
          for (const w of ready) w.resolve();
          const first = event.event_id !== undefined && !this.handledEvents.has(event.event_id);
          if (event.event_id !== undefined) this.handledEvents.add(event.event_id);
          if (event.event === 'run_completed' && (first || this.habits.actOnRepeatedEvent))
            this.onRunCompleted?.(event.run_id);
        }
      });
    });
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
    return this.url;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}

interface ScenarioOptions {
  timeScale: number;
  /** Which parts of the integration to exercise (default all but the held run). */
  parts?: Array<
    | 'connect'
    | 'fixtures'
    | 'reveal'
    | 'outage'
    | 'slow'
    | 'refused'
    | 'org-token'
    | 'webhooks'
    | 'held-run'
    | 'real-run'
    | 'credits'
    | 'batch-fix'
    | 'real-run-followed'
    | 'failed-fixture'
    | 'keep-working'
  >;
}

/** The partner's server-side client. */
export class PartnerClient {
  orgToken = '';
  private readonly base: string;

  /** Decisions calls that failed, waiting in the outbox to be sent again as they were. */
  private readonly outbox: Array<{ path: string; body: unknown }> = [];
  /** The partner's webhook endpoint, for a client that follows runs by webhook. */
  endpoint: PartnerWebhookEndpoint | undefined;

  constructor(
    private readonly provision: Provision,
    private readonly habits: Habits,
    private readonly timeScale: number,
  ) {
    this.base = provision.base_url;
  }

  /** When the recruiter acts: now, in UTC (the bad habit writes local time, three hours ahead, as if it were UTC). */
  actedAt(): string {
    return new Date(Date.now() + (this.habits.occurredAtLocalAsUtc ? 3 * 3_600_000 : 0)).toISOString();
  }

  /**
   * Sends decisions: with the retry policy, or, for an outbox client, once, a failed call kept to be sent
   * again as it was (the same occurred_at) minutes later.
   */
  async decide(path: string, body: unknown | ((attempt: number) => unknown)): Promise<Answer | null> {
    if (!this.habits.webhookFirst) return this.safeCall('POST', path, body);
    const payload = typeof body === 'function' ? (body as (a: number) => unknown)(1) : body;
    const answer = await this.call('POST', path, payload);
    if (answer === null || answer.status === 429 || answer.status >= 500) this.outbox.push({ path, body: payload });
    return answer;
  }

  /**
   * Reads a run until it ends, an unknown status read as running (read again at the polling pace); a
   * webhook-first client calls it when a run's webhook arrives.
   */
  async readUntilEnded(runId: string, maxReads = 10): Promise<Answer | null> {
    let read: Answer | null = null;
    for (let reads = 0; reads < maxReads; reads++) {
      if (reads > 0) await sleep(this.spec(5000));
      read = await this.safeCall('GET', `/runs/${runId}`);
      if (!read || read.status !== 200) return read;
      if (read.json.status === 'completed' || read.json.status === 'failed') return read;
    }
    return read;
  }

  /** A webhook-first client waits for the run's webhook, then reads it (to its end). */
  private async whenNotified(runId: string): Promise<Answer | null> {
    await this.endpoint?.delivery(runId, 20_000);
    return this.readUntilEnded(runId);
  }

  /** The outbox is flushed four minutes (spec time) after the failures: every call in it sent again as it was. */
  async flushOutbox(): Promise<void> {
    if (this.outbox.length === 0) return;
    await sleep(this.spec(240_000));
    for (const { path, body } of this.outbox.splice(0)) await this.safeCall('POST', path, body);
  }

  spec(ms: number): number {
    return ms / this.timeScale;
  }

  /** One request; null when the answer was lost. */
  async call(
    method: string,
    path: string,
    body?: unknown,
    token: string | null = this.orgToken,
    contentType = 'application/json',
    extra: Record<string, string> = {},
    key: string | null = this.provision.partner_key,
  ): Promise<Answer | null> {
    const headers: Record<string, string> = { 'x-svc-lang': this.habits.langEnUs ? 'en-US' : 'en', ...extra };
    if (key) headers['x-partner-key'] = key;
    if (token) headers['x-svc-org'] = token;
    if (body !== undefined) headers['content-type'] = contentType;
    let url = `${this.base}${path}`;
    if (this.habits.orgTokenInQuery && token) url += `?org=${token}`;
    try {
      const payload = body instanceof RawJson ? body.text : JSON.stringify(body);
      const res = await fetch(url, { method, headers, ...(body !== undefined ? { body: payload } : {}) });
      const text = await res.text();
      return {
        status: res.status,
        headers: res.headers,
        json: text ? (JSON.parse(text) as Record<string, unknown>) : {},
        text,
      };
    } catch {
      return null;
    }
  }

  /** The retry policy for retry-safe calls: backoff from 1 s, at most 3 attempts, Retry-After on 429. */
  async safeCall(
    method: string,
    path: string,
    body?: unknown | ((attempt: number) => unknown),
    extra: Record<string, string> = {},
  ): Promise<Answer | null> {
    let wait = this.spec(1000);
    let answer: Answer | null = null;
    const attempts = this.habits.dropFailedDecisions && path.endsWith('/decisions') ? 1 : 3;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      answer = await this.call(
        method,
        path,
        typeof body === 'function' ? (body as (a: number) => unknown)(attempt) : body,
        this.orgToken,
        'application/json',
        extra,
      );
      const retryable =
        answer === null ||
        answer.status === 429 ||
        answer.status >= 500 ||
        (answer.status === 402 && this.habits.retryAfter402 === true);
      if (!retryable || attempt === attempts) return answer;
      if (this.habits.giveUpOnUnknownErrorCode && answer !== null && String(answer.json.error ?? '').startsWith('zz_'))
        return answer;
      let delay = this.habits.noBackoff ? 0 : wait;
      const retryAfter = answer?.status === 429 ? Number(answer.headers.get('retry-after')) : NaN;
      if (!this.habits.ignoreRetryAfter && Number.isFinite(retryAfter)) delay = Math.max(delay, retryAfter * 1000);
      await sleep(delay);
      wait *= 2;
    }
    return answer;
  }

  /** Redeems `code` for customer `external`: x-partner-key only (the bad habit adds its org token). */
  private redeem(code: string | undefined, external: string): Promise<Answer | null> {
    const token = this.habits.orgTokenOnRedeem && this.orgToken ? this.orgToken : null;
    return this.call('POST', '/activations/redeem', { code, external_id: external }, token);
  }

  async connect(): Promise<void> {
    const [first, second] = this.provision.activation_codes;
    const lost = await this.redeem(first, 'customer-1');
    if (lost === null && this.habits.retryRedeem) {
      await sleep(this.spec(1000));
      await this.redeem(first, 'customer-1');
    }
    const answer = lost ?? (await this.redeem(second, 'customer-1b'));
    this.orgToken = String(answer?.json.org_token ?? '');
    await this.registerRecruiter();
  }

  /** The logged-in recruiter, registered (an upsert) as a page of the partner's product loads. */
  registerRecruiter(): Promise<Answer | null> {
    return this.safeCall('POST', '/users', {
      external_id: 'rec-1',
      email: 'rec@example.com',
      full_name: 'Rec One',
      role: 'recruiter',
    });
  }

  /** Starts fixture `name` for rec-1 and reads it once: the run id, its candidates and its notice codes. */
  private async readFixture(
    name: string,
    targetCount: number,
  ): Promise<{ runId: string; candidates: Array<{ id: number }>; codes: string[] }> {
    const start = await this.call('POST', '/runs', {
      job_external_id: name,
      acting_user_external_id: 'rec-1',
      target_count: targetCount,
    });
    const runId = String(start?.json.run_id ?? '');
    const read = await this.safeCall('GET', `/runs/${runId}`);
    if (this.habits.chokeOnExtraFields && read !== null && 'zz_extra_top_level' in read.json)
      throw new Error('unexpected field zz_extra_top_level');
    const notices = (read?.json.notices as Array<{ code: string }> | undefined) ?? [];
    return {
      runId,
      candidates: (read?.json.candidates as Array<{ id: number }> | undefined) ?? [],
      codes: [...new Set(notices.map((n) => n.code))],
    };
  }

  /** A fixture run shown to the recruiter: read once (completed at once), decisions and notices reported. */
  async fixture(name: string): Promise<void> {
    const read = await this.readFixture(name, 3);
    const { runId, candidates } = read;
    const known = /^[a-z_]+$/;
    const isKnown = (c: string) => known.test(c) && !c.startsWith('zz_');
    const codes = read.codes.filter(
      (c) => !(this.habits.omitUnknownNotices && !isKnown(c)) && !(this.habits.omitKnownNotices && isKnown(c)),
    );
    const actedAt = this.actedAt();
    const decisions = (attempt: number) =>
      candidates.slice(0, 2).map((c, i) => ({
        candidate_id: c.id,
        decision: i === 0 ? 'rejected' : 'shortlisted',
        reject_reason: i === 0 ? 'location' : this.habits.reasonOnShortlist ? 'location' : null,
        // When the recruiter acted, the same on every retry (the bad habit stamps the time of sending).
        occurred_at: this.habits.newOccurredAtOnRetry ? new Date(Date.now() + attempt).toISOString() : actedAt,
      }));
    const sent = await this.decide(`/runs/${runId}/decisions`, (attempt: number) => ({
      acting_user_external_id: 'rec-1',
      decisions: decisions(attempt),
      notices_shown: codes,
    }));
    // A 422 stores nothing: the whole batch goes again, fixed (a reason only on the rejection).
    if (sent?.status === 422) {
      const fixed = decisions(1).map((d) => (d.decision === 'rejected' ? d : { ...d, reject_reason: null }));
      await this.safeCall('POST', `/runs/${runId}/decisions`, {
        acting_user_external_id: 'rec-1',
        decisions: fixed,
        notices_shown: codes,
      });
    }
    // Later the recruiter adds a note to the shortlisted candidate: a new action, with its own occurred_at.
    const shortlisted = candidates[1];
    if (!shortlisted) return;
    await sleep(this.spec(2000));
    await this.decide(`/runs/${runId}/decisions`, {
      acting_user_external_id: 'rec-1',
      decisions: [
        {
          candidate_id: shortlisted.id,
          // The bad habit sends the note alone, as if a note were an action of its own.
          ...(this.habits.noteWithoutDecision ? {} : { decision: 'shortlisted', reject_reason: null }),
          note: 'Strong background; call on Monday',
          occurred_at: this.habits.reuseOccurredAtForNote ? actedAt : this.actedAt(),
        },
      ],
      notices_shown: codes,
    });
  }

  /** A batch with a reject reason the service does not allow: 422 unknown_reject_reason, fixed from allowed[] and resent whole. */
  async batchFix(): Promise<void> {
    const {
      runId,
      codes,
      candidates: [a, b],
    } = await this.readFixture('cert-notices-all', 3);
    if (!a || !b) return;
    const actedAt = new Date().toISOString();
    const batch = [
      { candidate_id: a.id, decision: 'shortlisted', reject_reason: null, occurred_at: actedAt },
      { candidate_id: b.id, decision: 'rejected', reject_reason: 'zz_outdated_reason', occurred_at: actedAt },
    ];
    const sent = await this.safeCall('POST', `/runs/${runId}/decisions`, {
      acting_user_external_id: 'rec-1',
      decisions: batch,
      notices_shown: codes,
    });
    if (sent?.status !== 422) return;
    const allowed = (sent.json.allowed as string[] | undefined) ?? [];
    const fixed = batch.map((d) =>
      d.reject_reason === 'zz_outdated_reason' ? { ...d, reject_reason: allowed[0] ?? null } : d,
    );
    await this.safeCall('POST', `/runs/${runId}/decisions`, {
      acting_user_external_id: 'rec-1',
      decisions: this.habits.dropValidAfter422 ? fixed.slice(1) : fixed,
      notices_shown: codes,
    });
  }

  /** A reveal on a cert-extra-fields run (the answers carry unknown fields, ignored), decisions and notices reported. */
  async credits(): Promise<void> {
    const {
      runId,
      codes,
      candidates: [candidate],
    } = await this.readFixture('cert-extra-fields', 2);
    // One of the session's reveals answers 402 insufficient_credits (injected): the user is told, no retry.
    if (candidate)
      await this.safeCall('POST', `/runs/${runId}/candidates/${candidate.id}/reveal`, {
        acting_user_external_id: 'rec-1',
      });
    await this.safeCall('POST', `/runs/${runId}/decisions`, {
      acting_user_external_id: 'rec-1',
      decisions: [],
      notices_shown: codes,
    });
  }

  /** Keeps a run on screen: polls while running, stops at completed/failed or after 30 minutes (spec time). */
  async watch(runId: string, startedAt: number): Promise<void> {
    const interval = this.spec(this.habits.pollEveryMs ?? 5000);
    const shown = new Set<string>();
    try {
      await this.poll(runId, startedAt, interval, shown);
    } finally {
      // Every notice rendered while the run was on screen is reported.
      await this.decide(`/runs/${runId}/decisions`, {
        acting_user_external_id: 'rec-1',
        decisions: [],
        notices_shown: [...shown],
      });
    }
  }

  private async poll(runId: string, startedAt: number, interval: number, shown: Set<string>): Promise<void> {
    for (let reads = 1; ; reads++) {
      if (this.habits.leaveAfterReads !== undefined && reads > this.habits.leaveAfterReads) return;
      const read = await this.safeCall('GET', `/runs/${runId}`);
      for (const n of (read?.json.notices as Array<{ code: string }> | undefined) ?? []) shown.add(n.code);
      const status = read?.json.status;
      if (status === 'completed' || status === 'failed') {
        if (this.habits.pollAfterCompletion) {
          for (let i = 0; i < 5; i++) {
            await sleep(interval);
            await this.call('GET', `/runs/${runId}`);
          }
        }
        return;
      }
      if (read === null || read.status !== 200) return;
      if (this.habits.stopOnUnknownStatus && status !== 'running') return;
      if (Date.now() - startedAt > this.spec(30 * 60_000) && !this.habits.pollPast30Min) return;
      await sleep(interval);
    }
  }

  async slow(): Promise<void> {
    const start = await this.call('POST', '/runs', {
      job_external_id: 'cert-slow',
      acting_user_external_id: 'rec-1',
      target_count: 2,
    });
    const runId = String(start?.json.run_id ?? '');
    if (!this.habits.webhookFirst) return this.watch(runId, Date.now());
    // Followed by webhook: read when run_completed arrives, and reported.
    await this.reportShown(runId, await this.whenNotified(runId));
  }

  /**
   * The failed-run fixture: its first start answers 500 (injected), and the error is shown. The bad habits
   * retry it: a loop at once, a queue three minutes later; a recruiter may start it again by hand once.
   */
  async failedFixture(): Promise<void> {
    const body = { job_external_id: 'cert-failed', acting_user_external_id: 'rec-1', target_count: 1 };
    let answer = await this.call('POST', '/runs', body);
    if (answer && answer.status >= 500) {
      if (this.habits.retryRunStartAfter500) {
        for (let attempt = 2; attempt <= 3 && answer !== null && answer.status >= 500; attempt++)
          answer = await this.call('POST', '/runs', body);
      } else if (this.habits.retryRunStartLater) {
        await sleep(this.spec(180_000));
        answer = await this.call('POST', '/runs', body);
      } else if (this.habits.restartByHandOnce) {
        // The recruiter reads the error and clicks "start" again, once.
        await sleep(this.spec(3000));
        answer = await this.call('POST', '/runs', body);
      }
    }
    if (answer?.status !== 202) return;
    // The failed run shown: read once (it fails at once), its notices reported.
    const runId = String(answer.json.run_id ?? '');
    await this.reportShown(runId, await this.safeCall('GET', `/runs/${runId}`));
  }

  /**
   * The recruiter keeps working after the checklist (a page load registers them again, every 5 s spec
   * time) until the one customer's token is refused with 401 invalid_org_token; the connection is then
   * renewed with another provisioned code under a new external id, and work goes on with the new token.
   */
  async keepWorking(maxMs = 30_000): Promise<void> {
    const until = Date.now() + maxMs;
    while (Date.now() < until) {
      const answer = await this.call('POST', '/users', {
        external_id: 'rec-1',
        email: 'rec@example.com',
        full_name: 'Rec One',
        role: 'recruiter',
      });
      if (answer?.status === 401 && answer.json.error === 'invalid_org_token') {
        const renewal = this.provision.activation_codes[2];
        const renewed = await this.redeem(renewal, 'customer-1-renewed');
        this.orgToken = String(renewed?.json.org_token ?? '');
        if (this.orgToken) await this.registerRecruiter();
        return;
      }
      await sleep(Math.max(this.spec(5000), 20));
    }
  }

  /** A real run on the partner's own job: the job created, the run started. */
  async realRun(): Promise<string | undefined> {
    // Plain text, HTML stripped: a lone `<` or `&` in prose is text.
    const description = this.habits.htmlDescription
      ? '<p>Node.js and TypeScript</p><ul><li>APIs</li></ul>'
      : 'Node.js & TypeScript, < 5 years is fine';
    const job = {
      external_id: 'job-1',
      title: 'Backend developer',
      description_text: description,
      location_text: 'Tel Aviv',
      ...(this.habits.keyInBody ? { partner_key: this.provision.partner_key } : {}),
    };
    if (this.habits.jobAsTextPlain) await this.call('POST', '/jobs', job, this.orgToken, 'text/plain');
    else if (this.habits.noPartnerKeyOnJob)
      await this.call('POST', '/jobs', job, this.orgToken, 'application/json', {}, null);
    else if (this.habits.noOrgTokenOnJob) await this.call('POST', '/jobs', job, null);
    else await this.safeCall('POST', '/jobs', job);
    const body = {
      job_external_id: 'job-1',
      acting_user_external_id: 'rec-1',
      target_count: 10,
      requirements: [{ text: 'TypeScript', kind: 'must' }],
    };
    const first = await this.call('POST', '/runs', body);
    return first?.status === 202 ? String(first.json.run_id) : undefined;
  }

  /**
   * A real run on screen until a candidate with an id above 2^53 is listed (every fourth profile has
   * one), then the recruiter shortlists the listed candidates (ids sent as read, digit for digit) and
   * leaves; what was shown is reported.
   */
  async followRealRun(runId: string): Promise<void> {
    const shown = new Set<string>();
    let ids: string[] = [];
    // Followed by webhook: the run is read once run_completed arrives.
    if (this.habits.webhookFirst) {
      const read = await this.whenNotified(runId);
      for (const n of (read?.json.notices as Array<{ code: string }> | undefined) ?? []) shown.add(n.code);
      ids = read ? candidateIdTokens(read.text) : [];
    }
    for (let reads = 0; reads < 30 && !this.habits.webhookFirst; reads++) {
      const read = await this.safeCall('GET', `/runs/${runId}`);
      if (!read || read.status !== 200) break;
      for (const n of (read.json.notices as Array<{ code: string }> | undefined) ?? []) shown.add(n.code);
      const exact = candidateIdTokens(read.text);
      // The bad habit reads ids into doubles, as JSON.parse does.
      ids = this.habits.floatIds
        ? ((read.json.candidates as Array<{ id: number }> | undefined) ?? []).map((c) => String(c.id))
        : exact;
      if (exact.some((id) => BigInt(id) > 2n ** 53n) || read.json.status === 'completed') break;
      await sleep(this.spec(5000));
    }
    const actedAt = this.actedAt();
    const items = ids.map(
      (id) =>
        `{"candidate_id":${id},"decision":"shortlisted","reject_reason":null,"occurred_at":${JSON.stringify(actedAt)}}`,
    );
    await this.decide(
      `/runs/${runId}/decisions`,
      new RawJson(
        `{"acting_user_external_id":"rec-1","decisions":[${items.join(',')}],"notices_shown":${JSON.stringify([...shown])}}`,
      ),
    );
  }

  /** A real run: created job, the run started, then followed (on screen, or by webhook). */
  async realRunFollowed(): Promise<void> {
    const runId = await this.realRun();
    if (runId !== undefined) await this.followRealRun(runId);
  }

  /** The recruiter starts a real run and keeps it on screen. */
  async heldRun(): Promise<void> {
    const runId = await this.realRun();
    if (runId !== undefined) await this.watch(runId, Date.now());
  }

  /** Reveals a candidate, then reads the run again to show the contact (a refresh, not a poll). */
  async revealAndRefresh(): Promise<void> {
    const first = await this.readFixture('cert-extra-fields', 2);
    const { runId } = first;
    const [candidate] = first.candidates;
    if (candidate)
      await this.safeCall('POST', `/runs/${runId}/candidates/${candidate.id}/reveal`, {
        acting_user_external_id: 'rec-1',
      });
    const again = await this.safeCall('GET', `/runs/${runId}`);
    const codes = [
      ...new Set([
        ...first.codes,
        ...((again?.json.notices as Array<{ code: string }> | undefined) ?? []).map((n) => n.code),
      ]),
    ];
    await this.safeCall('POST', `/runs/${runId}/decisions`, {
      acting_user_external_id: 'rec-1',
      decisions: [],
      notices_shown: codes,
    });
  }

  /** The partner tries its retry logic with the sandbox's simulate header: every read answers 503. */
  async simulatedOutage(): Promise<void> {
    const start = await this.call('POST', '/runs', {
      job_external_id: 'cert-empty',
      acting_user_external_id: 'rec-1',
      target_count: 1,
    });
    const path = `/runs/${String(start?.json.run_id ?? '')}`;
    const attempts = this.habits.fourAttempts ? 4 : 3;
    let wait = this.spec(1000);
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const answer = await this.call('GET', path, undefined, this.orgToken, 'application/json', {
        'x-svc-sandbox-simulate': 'rate_limit_unavailable',
      });
      if (answer?.status !== 503 || attempt === attempts) return;
      await sleep(wait);
      wait *= 2;
    }
  }

  /** Requests the sandbox refuses, never retried. */
  async refused(): Promise<void> {
    const musts = ['Go', 'Rust', 'Kotlin', 'Scala'].map((text) => ({ text, kind: 'must' }));
    const body = {
      job_external_id: 'cert-empty',
      acting_user_external_id: 'rec-1',
      target_count: 2,
      requirements: musts,
    };
    const answer = await this.call('POST', '/runs', body);
    if (answer?.status === 422 && this.habits.retry422) {
      await sleep(this.spec(1000));
      await this.call('POST', '/runs', body);
    }
  }

  /**
   * A second customer: connected, then revoked by the operator after its first call (the certifier's
   * org-token-revoked injection). The client drops the refused token and renews the connection with a new
   * code (another of the provisioned ones; the old connection keeps its external id, so the renewed one
   * takes a new id of the partner's: renewal's external id is not shown).
   */
  async secondCustomer(): Promise<void> {
    const [, , code, renewal] = this.provision.activation_codes;
    const redeemed = await this.redeem(code, 'customer-2');
    let token = String(redeemed?.json.org_token ?? '');
    const recruiter = (id: string) => ({
      external_id: id,
      email: `${id}@example.com`,
      full_name: 'Second Customer Recruiter',
      role: 'recruiter',
    });
    const register = (id: string) => this.call('POST', '/users', recruiter(id), token);
    await register('rec-21');
    const refused = await register('rec-22');
    if (refused?.status !== 401 || refused.json.error !== 'invalid_org_token') return;
    if (this.habits.reuseRefusedOrgToken) {
      // Another worker of the same customer goes on with the token long after the refusal.
      await sleep(Math.max(this.spec(60_000), 2_000) + 300);
      await this.call(
        'POST',
        '/jobs',
        { external_id: 'job-2', title: 'QA', description_text: 'Tests', location_text: 'Haifa' },
        token,
      );
      return;
    }
    const renewed = await this.redeem(renewal, 'customer-2-renewed');
    token = String(renewed?.json.org_token ?? '');
    if (token) await register('rec-22');
  }

  /**
   * The webhook fixture: its run_completed prompts a read of the run and a report of the notices shown,
   * once per event (a repeated delivery is acknowledged and not acted on again); then the test deliveries.
   * Waits for the repeat the session sends a minute (spec time, 2 s real at least) after the first is
   * acknowledged.
   */
  async webhooks(endpoint: PartnerWebhookEndpoint): Promise<void> {
    const reactions: Array<Promise<void>> = [];
    let webhookRun = '';
    endpoint.onRunCompleted = (runId) => {
      if (runId === webhookRun)
        reactions.push(this.readUntilEnded(runId).then((read) => this.reportShown(runId, read)));
    };
    const start = await this.call('POST', '/runs', {
      job_external_id: 'cert-webhook',
      acting_user_external_id: 'rec-1',
      target_count: 1,
    });
    webhookRun = String(start?.json.run_id ?? '');
    await this.call('POST', '/sandbox/webhooks/test', { event: 'candidate_revealed' });
    await this.call('POST', '/sandbox/webhooks/test', { event: 'run_completed', valid_signature: false });
    const until = Date.now() + 15_000;
    while (
      Date.now() < until &&
      (endpoint.received.filter((r) => r.valid).length < 2 || !endpoint.received.some((r) => !r.valid))
    )
      await sleep(20);
    const repeatDue = Date.now() + Math.max(this.spec(120_000), 6_000);
    const ofRun = () => endpoint.received.filter((r) => r.valid && r.runId === webhookRun).length;
    while (Date.now() < repeatDue && ofRun() < 2) await sleep(20);
    await Promise.all(reactions);
  }

  /** A run shown to the recruiter: the notices its read lists reported (none when the read failed). */
  private async reportShown(runId: string, read: Answer | null): Promise<void> {
    const codes = ((read?.json.notices as Array<{ code: string }> | undefined) ?? []).map((n) => n.code);
    await this.decide(`/runs/${runId}/decisions`, {
      acting_user_external_id: 'rec-1',
      decisions: [],
      notices_shown: [...new Set(codes)],
    });
  }
}

export type Part = NonNullable<ScenarioOptions['parts']>[number];

/**
 * The whole integration of a conformant client: nothing in it is sent only for the judge (no simulate
 * header, no invalid value, no forged token). `outage` (the simulate header), `refused` (four musts) and
 * `batch-fix` (a reason outside the list) are left to the bad habits that need them.
 */
export const ALL_PARTS: Part[] = [
  'connect',
  'fixtures',
  'reveal',
  'slow',
  'org-token',
  'webhooks',
  'real-run-followed',
  'credits',
  'failed-fixture',
];

/**
 * The session checklist (docs/partner.md) with one customer: every step, the one customer kept at work
 * until its token is revoked and renewed; no second customer.
 */
export const CHECKLIST_PARTS: Part[] = [
  'connect',
  'fixtures',
  'reveal',
  'slow',
  'webhooks',
  'real-run-followed',
  'credits',
  'failed-fixture',
  'keep-working',
];

/** Runs the integration as a partner exercises it before go-live. */
export async function exercise(
  client: PartnerClient,
  endpoint: PartnerWebhookEndpoint | undefined,
  parts: Part[] = ALL_PARTS,
): Promise<void> {
  if (parts.includes('connect')) await client.connect();
  const work: Array<Promise<void>> = [];
  if (parts.includes('fixtures')) work.push(client.fixture('cert-notices-all'), client.fixture('cert-notice-unknown'));
  if (parts.includes('reveal')) work.push(client.revealAndRefresh().catch(() => undefined));
  if (parts.includes('outage')) work.push(client.simulatedOutage());
  if (parts.includes('slow')) work.push(client.slow());
  if (parts.includes('refused')) work.push(client.refused());
  if (parts.includes('org-token')) work.push(client.secondCustomer());
  if (parts.includes('webhooks') && endpoint) work.push(client.webhooks(endpoint));
  if (parts.includes('real-run')) work.push(client.realRun().then(() => undefined));
  if (parts.includes('real-run-followed')) work.push(client.realRunFollowed());
  if (parts.includes('held-run')) work.push(client.heldRun());
  if (parts.includes('credits')) work.push(client.credits().catch(() => undefined));
  if (parts.includes('batch-fix')) work.push(client.batchFix());
  if (parts.includes('failed-fixture')) work.push(client.failedFixture());
  await Promise.all(work);
  await client.flushOutbox();
  if (parts.includes('keep-working')) await client.keepWorking();
}
