// Rows of the hostile matrix (test/support/hostile-matrix.ts) for the exploration's bounds: a target
// whose answers to generated requests never end (headers and a first byte, then nothing), and
// `--explore` at its documented maximum. The exploration sends only while another check still runs, so
// however its answers stall, it lengthens the certification by at most one request time-out (30 s):
// before every generated request went on spare budget, its shrinking steps and second attempts waited
// 30 s each, in turn, after the catalogue had ended (the run had not ended after 400 s).

import { provisionedRunArgs } from '../cli-support.js';
import type { MatrixRow } from './hostile-matrix.js';
import { forward, startProxy } from './loopback-server.js';
import { startSandbox } from '../../src/sandbox/index.js';

/** What only the exploration's requests carry: its fresh identifiers, its extra field, its sweep's text. */
const GENERATED = /svc-certify-explore|zz_explore_note|Noa 😀/;

/** The sandbox behind a proxy that answers a generated request with a body that never ends. */
async function startStallingExploration(): Promise<{ args: string[]; close(): Promise<void> }> {
  const sandbox = await startSandbox({ timeScale: 60, allowLoopbackWebhooks: true });
  const proxy = await startProxy((req, res, body, upstream) => {
    if (!GENERATED.test(body.toString('utf8'))) return forward(upstream, req, res, body);
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.write('{');
  });
  proxy.to(sandbox.baseUrl);
  return {
    args: provisionedRunArgs({ ...sandbox.provision(), base_url: proxy.baseUrl }),
    async close() {
      await proxy.close();
      await sandbox.close();
    },
  };
}

/** Catalogue time on a loaded 2-core machine (about 20 s), plus the one request time-out (30 s) it may add. */
const CATALOGUE_PLUS_ONE_TIMEOUT_S = 100;

export const EXPLORE_ROWS: MatrixRow[] = [
  {
    name: 'run-explore-answers-never-end',
    what: 'run, every answer to a generated request a body that never ends: the exploration stops with the catalogue',
    prepare: async () => {
      const t = await startStallingExploration();
      return { args: t.args, cleanup: () => t.close() };
    },
    // Each stalled case is a failure of the exploration's checks (no answer): judged, never an engine
    // error, and the catalogue's verdict is its own (this proxy registers no webhook: those checks fail).
    expect: { code: 1, verdict: 'not-certified', reports: true },
    verify: (results) => {
      const checks = (results as { checks?: Array<{ id: string; status: string; message: string }> }).checks ?? [];
      const errors = checks.filter((c) => c.status === 'error').map((c) => `${c.id} (${c.message.slice(0, 300)})`);
      if (errors.length > 0) return `engine errors: ${errors.join('; ')}`;
      const stalled = checks.filter((c) => c.id.startsWith('explore.') && c.status === 'failed');
      return stalled.length === 0 ? 'no exploration check judged a stalled answer' : undefined;
    },
    maxSeconds: CATALOGUE_PLUS_ONE_TIMEOUT_S,
    testedIn: 'test/hostile-matrix.test.ts',
  },
  {
    name: 'run-explore-maximum',
    what: 'run --explore 10000 (the documented maximum) on the embedded sandbox: drawn lazily, ended with the catalogue',
    prepare: () => Promise.resolve({ args: ['run', '--explore', '10000'] }),
    // The catalogue, then the grace (one request time-out) in which more of the 10000 cases go out:
    // 107.5 s, 289 MB peak, 3,074 generated requests at load 18 on 2 cores (over the CI rows' 120 s
    // test time-out there): bench only.
    expect: { code: 0, verdict: 'certified', reports: true },
    maxSeconds: 240,
    testedIn: 'bench',
  },
  {
    name: 'run-explore-1e12-refused',
    what: 'run --explore 1e12: refused with exit 2 in one line (decimal digits only, at most 10000)',
    prepare: () => Promise.resolve({ args: ['run', '--explore', '1e12'] }),
    expect: {
      code: 2,
      reports: false,
      stderr: /--explore must be a whole number of requests from 0 to 10000 \(got "1e12"\)/,
    },
    maxSeconds: 10,
    testedIn: 'test/hostile-matrix.test.ts',
  },
];
