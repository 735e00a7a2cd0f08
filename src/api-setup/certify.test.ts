// The runner against a real local HTTP server with tiny synthetic checks: every status, setup
// failures, time budgets, needs, code allocation, recorded exchanges and unreachable targets.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../config/config.js';
import type { CheckDefinition } from './check.js';
import { certify } from './certify.js';
import { decideVerdict } from '../runner/verdict.js';
import { unlockOf } from './needs.js';
import { TargetUnreachableError } from './preflight.js';
import type { RunResult } from '../runner/results.js';
import { certifyConfig } from '../../test/support/certify-config.js';

const KEY = `spk_live_${'ab'.repeat(24)}`;
const TOKEN = `sot_${'cd'.repeat(24)}`;
let server: Server;
let baseUrl: string;
let redeemStatus = 200;
const redeemed: string[] = [];

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'x-svc-environment': 'sandbox' });
  res.end(JSON.stringify(body));
}

async function body(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};
}

beforeAll(async () => {
  server = createServer((req, res) => {
    void (async () => {
      const url = req.url ?? '';
      if (req.method === 'POST' && url === '/v1/activations/redeem') {
        const b = await body(req);
        redeemed.push(String(b.code));
        if (redeemStatus !== 200) return json(res, redeemStatus, { error: 'internal_error', message: 'boom' });
        return json(res, 200, {
          organization_id: '7b0c5b9e-2d7e-4a56-9a59-6f8a3f0f3a11',
          org_token: TOKEN,
          organization_name: 'Acme',
        });
      }
      if (req.method === 'POST' && url === '/v1/runs') {
        const b = await body(req);
        if (b.job_external_id === 'refused')
          return json(res, 422, { error: 'requirements_rejected', message: 'no', rejected: [] });
        return json(res, 202, { run_id: '0b7f4c1e-9d2a-4f1b-8c3e-5a6d7e8f9a0b', status: 'queued' });
      }
      if (url === '/v1/ok') return json(res, 200, { ok: true, echo: req.headers['x-svc-org'] ?? null });
      if (url === '/v1/created') return json(res, 201, { ok: true });
      if (url.startsWith('/v1/runs/')) return json(res, 401, { error: 'invalid_org_token', message: 'no' });
      json(res, 404, { error: 'not_found', message: 'nothing here' });
    })();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

function config(over: Partial<Config> = {}): Config {
  return certifyConfig({
    baseUrl,
    partnerKey: KEY,
    activationCodes: ['SVC-AAAA-AAAA', 'SVC-BBBB-BBBB', 'SVC-CCCC-CCCC'],
    ...over,
  });
}

const spec: CheckDefinition['spec'] = ['Authentication'];
// A check an input unlocks declares itself `input`, as the registry requires of every check.
const def = (id: string, run: CheckDefinition['run'], extra: Partial<CheckDefinition> = {}): CheckDefinition => ({
  id: `alpha.${id}`,
  title: id,
  suite: 'alpha',
  spec,
  evidence: unlockOf(extra.needs, undefined) === undefined ? 'provoked' : 'input',
  run,
  ...extra,
});

/** The one verdict decision, as finishCertification makes it (no baseline here). */
const verdictOf = (result: RunResult, strict: boolean) => decideVerdict(result, strict).verdict;
describe('certify', () => {
  it('maps outcomes to passed, failed, skipped and error, sorted by id', async () => {
    const checks = [
      def('passes', async (t) => {
        const res = await t.api.get('/ok');
        t.expect.status(res, 200, 'Authentication');
      }),
      def('fails', async (t) => {
        const res = await t.api.post('/created', { a: 1 });
        t.expect.status(res, 202, 'Endpoints › POST /runs (start a run)');
        t.expect.equal(1, 2, 'the second thing', 'Authentication');
      }),
      def('skips', async (t) => t.skip('nothing to do here', 'inconclusive')),
      def('throws', async () => {
        throw new TypeError('bad engine');
      }),
      def('needs-expired-code', async () => undefined, { needs: ['expired-code'] }),
      def('needs-production', async () => undefined, { needs: ['production'] }),
    ];
    const result = await certify({ config: config(), checks, suiteOrder: ['alpha'], marginMs: 5_000 });
    const by = Object.fromEntries(result.checks.map((c) => [c.id.slice(6), c]));
    expect(result.checks.map((c) => c.id)).toEqual([...result.checks.map((c) => c.id)].sort());
    expect(by.passes!.status).toBe('passed');
    expect(by.fails!.status).toBe('failed');
    expect(by.fails!.message).toBe(
      'POST /created answered 201; the spec requires 202 (Endpoints › POST /runs (start a run))',
    );
    expect(by.fails!.observations).toHaveLength(2);
    expect(by.fails!.observations[0]!.exchange).toBe(0);
    expect(by.fails!.exchanges[0]!.curl).toContain('$SVC_PARTNER_KEY');
    expect(by.skips).toMatchObject({ status: 'skipped', message: 'nothing to do here' });
    expect(by.throws).toMatchObject({ status: 'error', message: 'engine error: TypeError: bad engine' });
    expect(by['needs-expired-code']).toMatchObject({
      status: 'skipped',
      message: expect.stringContaining('--expired-code or SVC_EXPIRED_CODE'),
    });
    expect(by['needs-production']!.status).toBe('skipped');
    expect(result.summary).toEqual({ total: 6, passed: 1, failed: 1, skipped: 3, error: 1, warning: 0, expected: 0 });
    expect(result.certification).toBe('run');
    expect(result.target.environment).toBe('sandbox');
    expect(verdictOf(result, false)).toBe('not-certified');
    expect(JSON.stringify(result)).not.toContain(KEY);
  });

  it('turns an overrun budget into an error and keeps going', async () => {
    const checks = [
      def('sleeps', async (t) => t.sleep(10_000), { timeoutMs: 100 }),
      def('after', async (t) => void t.expect.status(await t.api.get('/ok'), 200, 'Authentication')),
    ];
    const result = await certify({ config: config(), checks, suiteOrder: ['alpha'], marginMs: 200, concurrency: 1 });
    expect(result.checks[1]).toMatchObject({
      id: 'alpha.sleeps',
      status: 'error',
      message: expect.stringContaining('overran its time budget'),
    });
    expect(result.checks[0]!.status).toBe('passed');
  });

  it('starts a check with afterOthers only once every other check has ended, whatever the order given', async () => {
    const ended: string[] = [];
    let seenByLast: string[] = [];
    const slow = (id: string, ms: number): CheckDefinition =>
      def(id, async (t) => {
        await t.sleep(ms);
        t.expect.status(await t.api.get('/ok'), 200, 'Authentication');
        ended.push(id);
      });
    const checks = [
      // Listed first, so a plain schedule would start it first.
      def(
        'judges-all',
        async (t) => {
          seenByLast = [...ended];
          t.expect.status(await t.api.get('/ok'), 200, 'Authentication');
        },
        { afterOthers: true },
      ),
      slow('one', 30),
      slow('two', 10),
    ];
    const result = await certify({ config: config(), checks, suiteOrder: ['alpha'], marginMs: 5_000 });
    expect(result.checks.map((c) => c.status)).toEqual(['passed', 'passed', 'passed']);
    expect([...seenByLast].sort()).toEqual(['one', 'two']);
  });

  it('starts the checks with afterOthers once every other check has ended or said it only watches', async () => {
    let lastStarted = (): void => undefined;
    const started = new Promise<'started'>((resolve) => (lastStarted = () => resolve('started')));
    const checks = [
      def(
        'judges-all',
        async (t) => {
          lastStarted();
          t.expect.status(await t.api.get('/ok'), 200, 'Authentication');
        },
        { afterOthers: true },
      ),
      // Its quiet window waits for the last check's start: without the gate opening on onlyWatching,
      // the last check would start only after this one ended, and the watch would end 'late'.
      def('watcher', async (t) => {
        t.expect.status(await t.api.get('/ok'), 200, 'Authentication');
        t.onlyWatching();
        const seen = await Promise.race([started, t.sleep(5_000).then(() => 'late' as const)]);
        t.expect.equal(seen, 'started', 'the checks after all others, while this one watched', 'Authentication');
      }),
    ];
    const result = await certify({ config: config(), checks, suiteOrder: ['alpha'], marginMs: 10_000 });
    expect(result.checks.map((c) => [c.id, c.status])).toEqual([
      ['alpha.judges-all', 'passed'],
      ['alpha.watcher', 'passed'],
    ]);
  });

  it('shares one redemption, attaches setup exchanges, and redacts the org token', async () => {
    redeemed.length = 0;
    const checks = ['one', 'two', 'three'].map((n) =>
      def(n, async (t) => {
        const org = await t.setup.org();
        const res = await t.api.get('/ok');
        t.expect.equal(
          res.json && (res.json as Record<string, unknown>).echo,
          org.orgToken,
          'the org token sent',
          'Authentication',
        );
      }),
    );
    const result = await certify({ config: config(), checks, suiteOrder: ['alpha'] });
    expect(redeemed).toEqual(['SVC-AAAA-AAAA']);
    expect(result.summary.passed).toBe(3);
    for (const c of result.checks) {
      expect(c.exchanges[0]!.label).toMatch(/^setup: /);
      expect(c.exchanges[0]!.request.url).toMatch(/\/activations\/redeem$/);
    }
    expect(JSON.stringify(result)).not.toContain(TOKEN);
  });

  it('fails (not errors) the checks whose setup step the target broke', async () => {
    redeemStatus = 500;
    try {
      const checks = [def('needs-org', async (t) => void (await t.setup.org()), { needs: ['org'] })];
      const result = await certify({ config: config(), checks, suiteOrder: ['alpha'] });
      const c = result.checks[0]!;
      expect(c.status).toBe('failed');
      expect(c.message).toMatch(
        /^setup step org \(redeem an activation code\) failed: POST \/activations\/redeem answered 500/,
      );
      expect(c.observations[0]!.exchange).toBe(0);
      expect(c.exchanges[0]!.response?.status).toBe(500);
    } finally {
      redeemStatus = 200;
    }
  });

  it('reserves activation codes per check in report order and skips when none is left', async () => {
    const seen: Record<string, string | undefined> = {};
    const checks = ['a', 'b', 'c'].map((n) =>
      def(`code-${n}`, async (t) => void (seen[n] = t.setup.takeActivationCode()), { needs: ['activation-code'] }),
    );
    const result = await certify({ config: config(), checks, suiteOrder: ['alpha'] });
    expect(seen).toEqual({ a: 'SVC-BBBB-BBBB', b: 'SVC-CCCC-CCCC' });
    expect(result.checks[2]).toMatchObject({
      status: 'skipped',
      message: expect.stringContaining('SVC_ACTIVATION_CODES'),
    });
  });

  it('reports the real runs the shared setup saw started: not refused starts, not fixture runs', async () => {
    const start = (job: string) => async (t: Parameters<CheckDefinition['run']>[0]) => {
      const res = await t.setup.startRun(
        { job_external_id: job, acting_user_external_id: 'u', target_count: 1 },
        { label: `start ${job}` },
      );
      t.expect.status(res, job === 'refused' ? 422 : 202, 'Endpoints › POST /runs (start a run)');
    };
    const checks = [
      def('real', start('svc-certify-job')),
      def('refused', start('refused')),
      def('fixture', start('cert-empty')),
      def('real-too', start('svc-certify-job-2')),
    ];
    const result = await certify({
      config: config({ orgToken: TOKEN, environment: 'sandbox' }),
      checks,
      suiteOrder: ['alpha'],
    });
    expect(result.summary.passed).toBe(4);
    expect(result.stats?.realRuns).toBe(2);
    // Recorded by the check that started it, as its own request.
    expect(result.checks.find((c) => c.id === 'alpha.real')!.exchanges.map((e) => e.label)).toEqual([
      'start svc-certify-job',
    ]);
  });

  it('refuses an unreachable target with TargetUnreachableError', async () => {
    const dead = createServer();
    await new Promise<void>((r) => dead.listen(0, '127.0.0.1', r));
    const port = (dead.address() as AddressInfo).port;
    await new Promise<void>((r) => dead.close(() => r()));
    await expect(
      certify({
        config: config({ baseUrl: `http://127.0.0.1:${port}/v1` }),
        checks: [def('x', async () => undefined)],
        suiteOrder: ['alpha'],
      }),
    ).rejects.toThrow(TargetUnreachableError);
  });

  it('maps warnings to warning; any failure wins; a warning passes unless --strict', async () => {
    const reading = {
      spec: 'Authentication' as const,
      reading: 'the strict reading',
      otherReading: 'the spec has no MUST here',
    };
    const checks = [
      def('warns', async (t) => {
        const res = await t.api.get('/ok');
        t.expect.warn(false, { message: 'looks odd', expected: 'x', received: 'y', ...reading }, res);
        t.expect.warn(true, { message: 'never recorded', ...reading });
      }),
      def('warns-and-fails', async (t) => {
        t.expect.warn(false, { message: 'odd first', ...reading });
        t.expect.fail({ message: 'broken', spec: 'Authentication' });
      }),
      def('warns-then-skips', async (t) => {
        t.expect.warn(false, { message: 'odd', ...reading });
        t.skip('could not go on', 'inconclusive');
      }),
    ];
    const result = await certify({ config: config(), checks, suiteOrder: ['alpha'] });
    const by = Object.fromEntries(result.checks.map((c) => [c.id.slice(6), c]));
    expect(by.warns).toMatchObject({
      status: 'warning',
      message: 'looks odd (read as: the strict reading; the other reading: the spec has no MUST here) (Authentication)',
    });
    expect(by.warns!.observations).toEqual([
      expect.objectContaining({ severity: 'warning', expected: 'x', received: 'y', exchange: 0 }),
    ]);
    expect(by['warns-and-fails']).toMatchObject({ status: 'failed', message: 'broken (Authentication)' });
    expect(by['warns-then-skips']).toMatchObject({ status: 'skipped', message: 'could not go on' });
    expect(result.summary).toEqual({ total: 3, passed: 0, failed: 1, skipped: 1, error: 0, warning: 1, expected: 0 });

    const onlyWarning = await certify({ config: config(), checks: [checks[0]!], suiteOrder: ['alpha'] });
    expect(verdictOf(onlyWarning, false)).toBe('certified');
    expect(verdictOf(onlyWarning, true)).toBe('not-certified');
  });

  it('an inconclusive or needs-input skip leaves the run incomplete (not-certified with --strict); a not-applicable one does not', async () => {
    for (const kind of ['inconclusive', 'needs-input'] as const) {
      const result = await certify({
        config: config(),
        checks: [def('s', async (t) => t.skip('no', kind))],
        suiteOrder: ['alpha'],
      });
      expect(result.checks[0]).toMatchObject({ status: 'skipped', skipKind: kind });
      expect(verdictOf(result, false)).toBe('incomplete');
      expect(verdictOf(result, true)).toBe('not-certified');
    }
    const na = await certify({
      config: config(),
      checks: [
        def('p', async (t) => void t.expect.that(true, { message: 'x', spec: 'Authentication' })),
        def('s', async () => undefined, { needs: ['production'] }),
      ],
      suiteOrder: ['alpha'],
    });
    expect(na.checks.find((c) => c.id.endsWith('.s'))).toMatchObject({ status: 'skipped', skipKind: 'not-applicable' });
    expect(verdictOf(na, false)).toBe('certified');
    expect(verdictOf(na, true)).toBe('certified');
  });

  it('a check that asserted nothing is an engine error, never a pass', async () => {
    const result = await certify({
      config: config(),
      checks: [def('silent', async (t) => void (await t.api.get('/ok')))],
      suiteOrder: ['alpha'],
    });
    expect(result.checks[0]).toMatchObject({ status: 'error', message: expect.stringMatching(/^asserted nothing/) });
    expect(verdictOf(result, false)).toBe('not-certified');
  });

  it('a conditional check whose situation never arose is not-applicable with its reason, and the run certified', async () => {
    const result = await certify({
      config: config(),
      checks: [
        def('p', async (t) => void t.expect.that(true, { message: 'x', spec: 'Authentication' })),
        def('refs', async (t) => void (await t.api.get('/ok')), {
          evidence: 'conditional',
          notApplicableWhen: 'no notice carried a ref',
        }),
        def('own', async (t) => t.skip('both probes answered 200', 'inconclusive'), {
          evidence: 'conditional',
          notApplicableWhen: 'unused: the check said why itself',
        }),
      ],
      suiteOrder: ['alpha'],
    });
    expect(result.checks.find((c) => c.id === 'alpha.refs')).toMatchObject({
      status: 'skipped',
      skipKind: 'not-applicable',
      message: 'no notice carried a ref',
    });
    expect(result.checks.find((c) => c.id === 'alpha.own')).toMatchObject({
      status: 'skipped',
      skipKind: 'not-applicable',
      message: 'both probes answered 200',
    });
    expect(verdictOf(result, false)).toBe('certified');
    expect(verdictOf(result, true)).toBe('certified');
  });
});
