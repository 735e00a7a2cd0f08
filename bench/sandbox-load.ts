// Load generator for bench:sandbox, run in its own process (child_process.fork) so that it does not share
// the sandbox's event loop. Keep-alive connections with HTTP/1.1 pipelining through undici's Pool.
import { Pool } from 'undici';

export interface LoadJob {
  origin: string;
  path: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  durationMs: number;
  connections: number;
  pipelining: number;
}

export interface LoadResult {
  requests: number;
  errors: number;
  statuses: Record<string, number>;
  elapsedMs: number;
  p50Ms: number;
  p99Ms: number;
}

async function runLoad(job: LoadJob): Promise<LoadResult> {
  const pool = new Pool(job.origin, {
    connections: job.connections,
    pipelining: job.pipelining,
    keepAliveTimeout: 30_000,
  });
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  const start = performance.now();
  const deadline = start + job.durationMs;
  const worker = async () => {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      try {
        const res = await pool.request({
          origin: job.origin,
          path: job.path,
          method: job.method,
          headers: job.headers,
          body: job.body,
        });
        await res.body.dump();
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
      } catch {
        errors++;
      }
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: job.connections * job.pipelining }, worker));
  const elapsedMs = performance.now() - start;
  await pool.close();
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies.length === 0 ? 0 : (latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0);
  return { requests: latencies.length, errors, statuses, elapsedMs, p50Ms: at(0.5), p99Ms: at(0.99) };
}

process.on('message', (job: LoadJob) => {
  runLoad(job).then(
    (result) => {
      process.send?.(result);
      process.exit(0);
    },
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
});
