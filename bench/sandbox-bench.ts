// npm run bench:sandbox — run reads and decisions per second against the embedded sandbox on loopback,
// the load coming from a second process so the sandbox's single core is measured alone.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../src/sandbox/index.js';
import type { LoadJob, LoadResult } from './sandbox-load.js';

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
const PIPELINING = Number(process.env.BENCH_PIPELINING ?? 4);

function runGenerator(job: LoadJob): Promise<LoadResult> {
  const child = fork(fileURLToPath(new URL('./sandbox-load.js', import.meta.url)));
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve(m as LoadResult));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`load generator exited with ${code}`));
    });
    child.send(job);
  });
}

async function json(url: string, method: string, headers: Record<string, string>, body?: unknown): Promise<any> {
  // any: ad-hoc setup calls
  const res = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data: unknown = await res.json();
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(data)}`);
  return data;
}

function line(name: string, r: LoadResult): string {
  const rps = (r.requests / r.elapsedMs) * 1000;
  const statuses = Object.entries(r.statuses)
    .map(([s, n]) => `${s}×${n}`)
    .join(' ');
  return `${name.padEnd(12)} ${rps.toFixed(0).padStart(7)} req/s   p50 ${r.p50Ms.toFixed(2)} ms   p99 ${r.p99Ms.toFixed(2)} ms   (${r.requests} requests, ${r.errors} errors, ${statuses})`;
}

async function main(): Promise<void> {
  const sandbox = await startSandbox({ timeScale: 1 });
  try {
    const provision = sandbox.provision({ codes: 4 });
    const partnerId = sandbox.operator.partnerIdForKey(provision.partner_key);
    if (!partnerId) throw new Error('provisioned partner not found');
    // The bench measures the server, not the partner's allowance.
    sandbox.operator.setRateLimit(partnerId, { perMinute: 100_000_000, perDay: 1_000_000_000 });
    const key = { 'x-partner-key': provision.partner_key };
    const org = await json(`${provision.base_url}/activations/redeem`, 'POST', key, {
      code: provision.activation_codes[0],
      external_id: 'bench-org',
    });
    const auth = { ...key, 'x-svc-org': org.org_token as string };
    await json(`${provision.base_url}/users`, 'POST', auth, {
      external_id: 'bench-user',
      email: 'bench@example.com',
      full_name: 'Bench User',
      role: 'recruiter',
    });
    const run = await json(`${provision.base_url}/runs`, 'POST', auth, {
      job_external_id: 'cert-notices-all',
      acting_user_external_id: 'bench-user',
      target_count: 6,
    });
    const base = new URL(provision.base_url);
    const common = { origin: base.origin, durationMs: DURATION_MS, connections: CONNECTIONS, pipelining: PIPELINING };
    const reads = await runGenerator({
      ...common,
      path: `${base.pathname}/runs/${run.run_id}`,
      method: 'GET',
      headers: { ...auth, 'x-svc-lang': 'en' },
    });
    const decisionBody = JSON.stringify({
      acting_user_external_id: 'bench-user',
      decisions: [
        { candidate_id: 990000000001, decision: 'shortlisted', note: null, occurred_at: '2025-01-01T10:00:00Z' },
      ],
      notices_shown: ['run_progress'],
    });
    const decisions = await runGenerator({
      ...common,
      path: `${base.pathname}/runs/${run.run_id}/decisions`,
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: decisionBody,
    });
    console.log(
      `sandbox bench: ${DURATION_MS} ms each, ${CONNECTIONS} connections × pipelining ${PIPELINING}, load from a second process`,
    );
    console.log(line('run reads', reads));
    console.log(line('decisions', decisions));
    const readRps = (reads.requests / reads.elapsedMs) * 1000;
    console.log(
      `goal ≥ 10000 run reads/s with p99 < 10 ms: ${readRps >= 10_000 && reads.p99Ms < 10 ? 'met' : 'NOT met on this machine'}`,
    );
  } finally {
    await sandbox.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
