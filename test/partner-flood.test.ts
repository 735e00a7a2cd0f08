// Issue 17: a partner client (or anyone) flooding the sandbox with large unauthenticated POSTs must not
// exhaust the session's memory nor stall the sandbox. The built CLI is spawned as a user runs it (with
// the live console, which re-judges during the flood), 3,000 × 250 KB `POST /v1/jobs` with no valid key
// go over loopback 20 at a time, then SIGTERM: every report is written, the verdict is the session's
// own (incomplete: nothing was exercised), and the child's peak RSS (the kernel's VmHWM) stays bounded.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPORT_FILES, start, tmp } from './cli-support.js';
import { SIGNAL_EXIT_BOUND_S } from './support/hostile-matrix.js';
import { highWaterKb } from './support/peak-rss.js';

const FLOOD_REQUESTS = 3_000;
const BODY_BYTES = 250 * 1024;
const CONCURRENCY = 20;
const PEAK_RSS_LIMIT_MB = 512;

function post(url: URL, body: Buffer, agent: Agent): Promise<number> {
  return new Promise((done, fail) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': body.length,
          'x-partner-key': 'spk_live_notavalidkey00000000',
          'x-svc-org': 'sot_notavalidtoken0000000000',
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode ?? 0));
      },
    );
    req.on('error', fail);
    req.end(body);
  });
}

describe.skipIf(process.platform !== 'linux')('svc-certify partner under a flood (issue 17)', () => {
  it(`${FLOOD_REQUESTS} × 250 KB POST /v1/jobs, all 401, then SIGTERM: every report written, exit 3 within ${SIGNAL_EXIT_BOUND_S} s, peak RSS ≤ ${PEAK_RSS_LIMIT_MB} MB`, async () => {
    const dir = tmp();
    const child = start(['partner', '--provision', 'p.json', '--report-dir', 'out'], { cwd: dir });
    let output = '';
    child.stdout!.on('data', (d: Buffer) => (output += d.toString('utf8')));
    child.stderr!.on('data', (d: Buffer) => (output += d.toString('utf8')));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
      child.on('close', (code, signal) => done({ code, signal })),
    );
    let peakKb = 0;
    let killed = false;
    const poll = setInterval(() => {
      peakKb = Math.max(peakKb, highWaterKb(child.pid!));
      // A regression must fail fast, not take gigabytes of a shared machine.
      if (peakKb > 1536 * 1024 && !killed) {
        killed = true;
        child.kill('SIGKILL');
      }
    }, 25);
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    try {
      const until = Date.now() + 15_000;
      while (!output.includes('judging until')) {
        if (Date.now() > until || child.exitCode !== null) throw new Error(`the session never started:\n${output}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      const provision = JSON.parse(readFileSync(join(dir, 'p.json'), 'utf8')) as { base_url: string };
      const url = new URL(`${provision.base_url.replace(/\/$/, '')}/jobs`);
      // A JSON body of many small fields: its parsed form is several times its text.
      const items = Array.from({ length: Math.ceil(BODY_BYTES / 40) }, (_, i) => ({ k: `v${i}`, n: i }));
      const filler = JSON.stringify({ items }).slice(0, BODY_BYTES - 40);
      const bodyOf = (i: number): Buffer =>
        Buffer.from(
          `${filler.slice(0, filler.lastIndexOf('},') + 1)}],"external_id":"flood-${String(i).padStart(6, '0')}"}`,
        );
      expect(JSON.parse(bodyOf(1).toString()) as unknown).toBeTypeOf('object');
      const started = Date.now();
      let next = 0;
      const statuses = new Map<number, number>();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < FLOOD_REQUESTS && !killed) {
            const status = await post(url, bodyOf(next++), agent);
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
          }
        }),
      );
      const floodSeconds = (Date.now() - started) / 1000;
      expect(killed, `killed above 1.5 GB during the flood`).toBe(false);
      expect([...statuses.entries()]).toEqual([[401, FLOOD_REQUESTS]]);
      agent.destroy();
      const stopAt = Date.now();
      child.kill('SIGTERM');
      const { code, signal } = await exited;
      const stopSeconds = (Date.now() - stopAt) / 1000;
      const peakMb = peakKb / 1024;
      console.log(
        `flood: ${FLOOD_REQUESTS} × ${BODY_BYTES} B in ${floodSeconds.toFixed(1)} s, shutdown ${stopSeconds.toFixed(1)} s, peak RSS ${peakMb.toFixed(0)} MB`,
      );
      expect(signal, output.slice(-2000)).toBeNull();
      const out = join(dir, 'out');
      expect(existsSync(out)).toBe(true);
      expect(readdirSync(out).sort()).toEqual([...REPORT_FILES].sort());
      const result = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as {
        verdict: string;
        stats: { requests: number };
        checks: Array<{ id: string; status: string }>;
      };
      // Distinct jobs, each refused once: nothing broken, nothing exercised but the flood.
      expect(result.checks.filter((c) => c.status === 'failed').map((c) => c.id)).toEqual([]);
      expect(result.verdict).toBe('incomplete');
      expect(code, output.slice(-2000)).toBe(3);
      expect(result.stats.requests).toBe(FLOOD_REQUESTS);
      expect(peakMb).toBeLessThanOrEqual(PEAK_RSS_LIMIT_MB);
      // Signals always win (issue 17 item 2): the session ends, reports written, within 2 s of the signal.
      expect(stopSeconds).toBeLessThanOrEqual(SIGNAL_EXIT_BOUND_S);
    } finally {
      clearInterval(poll);
      agent.destroy();
      child.kill('SIGKILL');
    }
  }, 90_000);
});
