// `run` against a hostile target, measured on the child process (peak RSS ≤ 512 MB, seconds): an
// oversized answer is a finding (failed checks with evidence, every report written), never
// "target unreachable" and never a crash.

import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tmp } from './cli-support.js';
import { runMeasured } from './support/peak-rss.js';

const KEY = `spk_live_${'ab'.repeat(24)}`;
const MAX_RSS_MB = 512;

describe('run against a target whose every answer is a 2 GB chunked body', () => {
  let server: Server;
  let baseUrl = '';

  beforeAll(async () => {
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      let sent = 0;
      let closed = false;
      res.on('close', () => (closed = true));
      const pump = (): void => {
        while (!closed && sent < 2 * 1024 ** 3) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const a = server.address();
    baseUrl = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}/v1`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('fails checks with the evidence (body_too_large), writes every report, within 512 MB', async () => {
    const cwd = tmp('svc-hostile-run-');
    const r = await runMeasured(['run', '--base-url', baseUrl, '--partner-key', KEY, '--report-dir', 'out'], { cwd, killAboveMb: 1024, timeoutMs: 60_000 });
    expect(r.killed).toBeUndefined();
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).not.toMatch(/unreachable/);
    for (const f of ['results.json', 'junit.xml', 'report.html', 'summary.md']) expect(existsSync(join(cwd, 'out', f)), f).toBe(true);
    const results = JSON.parse(readFileSync(join(cwd, 'out', 'results.json'), 'utf8')) as { verdict: string; checks: Array<{ status: string; message: string }> };
    expect(results.verdict).toBe('not-certified');
    expect(results.checks.some((c) => c.status === 'failed' && /body_too_large/.test(c.message))).toBe(true);
    expect(r.peakRssMb).toBeLessThanOrEqual(MAX_RSS_MB);
    console.log(`hostile run, 2 GB chunked answers: exit ${r.code}, peak RSS ${r.peakRssMb} MB, ${r.seconds.toFixed(1)} s`);
  });
});
