// The verdict means what it says (docs/design.md, *Verdict*), for the CLI as a user runs it: real child
// processes, real signals, real sockets. Each case is one of issue "Certified only with the evidence".

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createNetServer, type Server as NetServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { once } from 'node:events';
import { provisionedRunArgs, REPORT_FILES, run, start, tmp, type Ran } from './cli-support.js';

const KEY = `spk_live_${'ab'.repeat(24)}`;

interface Results {
  verdict: string;
  interrupted?: { signal: string };
  missing?: Array<{ kind: string; what: string; checks: string[] }>;
  selection?: { deselected: number };
  summary: { passed: number; failed: number; error: number; skipped: number };
  checks: Array<{ id: string; status: string; skipKind?: string; message: string }>;
}

const results = (dir: string, sub = 'reports'): Results =>
  JSON.parse(readFileSync(join(dir, sub, 'results.json'), 'utf8')) as Results;

/** Starts the CLI, sends `signals` at the given times (ms after the spawn), collects the end. */
function runSignalled(
  args: string[],
  signals: Array<{ afterMs: number; signal: NodeJS.Signals }>,
  cwd: string,
): Promise<Ran & { signalsSent: number }> {
  const child = start(args, { cwd });
  let stdout = '';
  let stderr = '';
  let sent = 0;
  let armed = false;
  const arm = (): void => {
    if (armed) return;
    armed = true;
    for (const s of signals) {
      setTimeout(() => {
        if (child.exitCode === null) {
          child.kill(s.signal);
          sent += 1;
        }
      }, s.afterMs);
    }
  };
  arm();
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr, signalsSent: sent })));
}

describe('run: interruptions are never a pass and never blame the target', () => {
  it('SIGINT during a single selected check: exit 130, the check interrupted (not passed), reports written', async () => {
    const cwd = tmp();
    const r = await runSignalled(
      ['run', '--embedded', '--grep', 'late-ack-redelivered'],
      [{ afterMs: 1_500, signal: 'SIGINT' }],
      cwd,
    );
    expect(r.signalsSent).toBe(1);
    expect(r.code, r.stderr).toBe(130);
    for (const f of REPORT_FILES) expect(existsSync(join(cwd, 'reports', f)), f).toBe(true);
    const res = results(cwd);
    expect(res.verdict).toBe('interrupted');
    expect(res.interrupted).toEqual({ signal: 'SIGINT' });
    expect(res.checks.find((c) => c.id === 'webhooks.late-ack-redelivered')).toMatchObject({
      status: 'skipped',
      skipKind: 'interrupted',
    });
    expect(r.stdout).toMatch(/^Interrupted: /m);
  });

  it('SIGTERM during a full run: exit 143, no check failed for the abort, every report written', async () => {
    const cwd = tmp();
    const r = await runSignalled(['run', '--embedded'], [{ afterMs: 3_000, signal: 'SIGTERM' }], cwd);
    expect(r.code, r.stderr).toBe(143);
    const res = results(cwd);
    expect(res.verdict).toBe('interrupted');
    expect(
      res.checks.filter((c) => c.status === 'failed' || c.status === 'error').map((c) => `${c.id}: ${c.message}`),
    ).toEqual([]);
    expect(res.checks.filter((c) => c.skipKind === 'interrupted').length).toBeGreaterThan(0);
    for (const f of REPORT_FILES) expect(existsSync(join(cwd, 'reports', f)), f).toBe(true);
  });
});

describe('run: a second signal during the shutdown', () => {
  it('still writes the reports, every check ended or interrupted, and exits 143', async () => {
    const cwd = tmp();
    const r = await runSignalled(
      ['run', '--embedded'],
      [
        { afterMs: 3_000, signal: 'SIGTERM' },
        { afterMs: 3_050, signal: 'SIGTERM' },
      ],
      cwd,
    );
    expect(r.code, r.stderr).toBe(143);
    for (const f of REPORT_FILES) expect(existsSync(join(cwd, 'reports', f)), f).toBe(true);
    const res = results(cwd);
    expect(res.verdict).toBe('interrupted');
    expect(
      res.checks.filter((c) => c.status === 'failed' || c.status === 'error').map((c) => `${c.id}: ${c.message}`),
    ).toEqual([]);
  });
});

describe('run: verdicts other than certified', () => {
  it('a --grep selection that passes is "passed-not-certified", exit 0, never printed as Certified', async () => {
    const cwd = tmp();
    const r = await run(['run', '--embedded', '--grep', 'cert-empty', '--reporter', 'console,json'], { cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Passed, not a certification: /m);
    expect(r.stdout).not.toMatch(/^Certified/m);
    const res = results(cwd);
    expect(res.verdict).toBe('passed-not-certified');
    expect(res.selection!.deselected).toBeGreaterThan(100);
  });

  it('--suite production against a sandbox judges nothing: incomplete, exit 3, never Certified', async () => {
    const cwd = tmp();
    const r = await run(['run', '--embedded', '--suite', 'production', '--reporter', 'console,json'], { cwd });
    expect(r.code, r.stderr).toBe(3);
    const res = results(cwd);
    expect(res.summary.passed).toBe(0);
    expect(res.verdict).toBe('incomplete');
    expect(r.stdout).toMatch(/no selected check applies to this target/);
  });
});

describe('run: preflight, before anything is spent', () => {
  let html: Server;
  let htmlUrl = '';
  /** Requests the HTML server answered: a command refused before it contacts the target adds none. */
  let htmlRequests = 0;
  let busy: NetServer;
  let busyPort = 0;

  beforeAll(async () => {
    // A plain web server: an HTML 404 on every path.
    html = createHttpServer((_req, res) => {
      htmlRequests += 1;
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html><body>Not Found</body></html>');
    });
    await new Promise<void>((r) => html.listen(0, '127.0.0.1', r));
    const a = html.address();
    htmlUrl = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}/v1`;
    busy = createNetServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const b = busy.address();
    busyPort = typeof b === 'object' && b ? b.port : 0;
  });

  afterAll(async () => {
    await new Promise((r) => html.close(r));
    await new Promise((r) => busy.close(r));
  });

  it('a plain web server as --base-url is not this API: exit 2 with one line, the reports say error', async () => {
    const cwd = tmp();
    const r = await run(['run', '--base-url', htmlUrl, '--partner-key', KEY], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(
      /not the Partner API v1 at http:\/\/127\.0\.0\.1:\d+\/v1: GET .*\/runs\/\{id\} answered 404 text\/html/,
    );
    // The reports of an exit 2: no check ran, the verdict is `error` with the line as its reason.
    const written = JSON.parse(readFileSync(join(cwd, 'reports', 'results.json'), 'utf8')) as {
      verdict: string;
      checks: unknown[];
      error: { reason: string };
    };
    expect(written).toMatchObject({ verdict: 'error', checks: [] });
    expect(written.error.reason).toMatch(/^not the Partner API v1 at /);
  });

  it('a server putting a byte-order mark before every JSON answer is this API with a defect: exit 1, every report, the BOM named', async () => {
    const work = tmp('svc-bom-');
    const provisionFile = join(work, 'provision.json');
    const serve = start(
      ['serve', '--time-scale', '60', '--provision', provisionFile, '--fault', 'conventions.json-byte-order-mark'],
      { cwd: work },
    );
    let out = '';
    serve.stdout!.on('data', (d: Buffer) => (out += d.toString('utf8')));
    try {
      const deadline = Date.now() + 20_000;
      while (!/listening on http/.test(out) && Date.now() < deadline && serve.exitCode === null)
        await new Promise((r) => setTimeout(r, 50));
      const p = JSON.parse(readFileSync(provisionFile, 'utf8')) as Record<string, unknown>;
      const cwd = tmp();
      const r = await run([...provisionedRunArgs(p, ['webhook_secret']), '--reporter', 'json,junit,html,markdown'], {
        cwd,
      });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).not.toMatch(/not the Partner API/);
      for (const f of REPORT_FILES) expect(existsSync(join(cwd, 'reports', f)), f).toBe(true);
      const res = results(cwd);
      expect(res.verdict).toBe('not-certified');
      const envelope = res.checks.find((c) => c.id === 'conventions.error-envelope-json-utf8');
      expect(envelope?.status).toBe('failed');
      expect(envelope?.message).toMatch(/starts with EF BB BF, a byte-order mark/);
      // Shared setup fails naming the cause too: every check that needed the organization says why.
      const setup = res.checks.find((c) => c.id === 'conventions.success-json-utf8');
      expect(setup?.message).toMatch(/byte-order mark/);
    } finally {
      serve.kill('SIGINT');
      if (serve.exitCode === null) await once(serve, 'exit');
    }
  });

  it('a report folder under a file: exit 2 at once, before the target is contacted', async () => {
    const cwd = tmp();
    writeFileSync(join(cwd, 'afile'), 'x');
    const before = htmlRequests;
    const r = await run(['run', '--base-url', htmlUrl, '--partner-key', KEY, '--report-dir', 'afile/sub'], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^svc-certify: --report-dir \S*afile\/sub: a part of the path is a file, not a folder/);
    // The HTML server would have made it "not the Partner API": the report folder was judged first.
    expect(r.stderr).not.toMatch(/Partner API/);
    expect(htmlRequests - before).toBe(0);
  });

  it('a report folder on a pseudo filesystem: exit 2 before the target is contacted, never a hang', async () => {
    const before = htmlRequests;
    const r = await run(
      ['run', '--base-url', htmlUrl, '--partner-key', KEY, '--report-dir', '/proc/svc-certify-nope'],
      { cwd: tmp() },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--report-dir \/proc\/svc-certify-nope: cannot create/);
    expect(htmlRequests - before).toBe(0);
  });

  it('--webhook-listen on a busy port: exit 2 naming the port', async () => {
    const r = await run(
      [
        'run',
        '--base-url',
        htmlUrl,
        '--partner-key',
        KEY,
        '--webhook-secret',
        'whsec-test-0123456789',
        '--webhook-listen',
        `127.0.0.1:${busyPort}`,
      ],
      { cwd: tmp() },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`port ${busyPort} is in use`));
  });
});

describe('serve: signals', () => {
  it("the first SIGTERM is serve's normal end (exit 0)", async () => {
    const r = await runSignalled(['serve', '--port', '0'], [{ afterMs: 1_000, signal: 'SIGTERM' }], tmp());
    expect(r.code, r.stderr).toBe(0);
  });
});
