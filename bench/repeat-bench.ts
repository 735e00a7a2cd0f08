// `npm run bench:repeat [N] [--idle] [--only embedded|latency]`: the same build against the same target, N times (default 20), compared:
// the embedded sandbox, then the sandbox behind 250 ms of latency, both while two busy loops keep both
// cores busy. Prints the verdicts, how many runs differ from the first and every difference (verdict,
// a check's outcome, the exploration's requests). The runs use the test helper with the sandbox in a
// worker thread, as `npx svc-certify run` runs it, at the time scale it uses (60), with every input
// provisioned (--exhaust-limits too).

import { spawn, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { certifySandbox } from '../test/support/certify-sandbox.js';
import type { RunResult } from '../src/runner/results.js';
import { differences, outcomeOf, startLatencyProxy, type Outcome } from '../test/support/repeat-runs.js';

const runs = Number(process.argv[2] ?? 20);
/** `--idle`: no busy loops of its own (a machine already loaded by other work). */
const ownLoad = !process.argv.includes('--idle');
/** `--only embedded` or `--only latency`: one of the two series (both by default). */
const onlyArg = process.argv.indexOf('--only');
const only = onlyArg >= 0 ? process.argv[onlyArg + 1] : undefined;
if (only !== undefined && only !== 'embedded' && only !== 'latency')
  throw new Error('--only takes embedded or latency');
const LATENCY_MS = 250;

/** A child process spinning until killed: one core kept busy. */
function busyLoop(): ChildProcess {
  return spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
}

/** The checks of an outcome that neither passed nor were not applicable. */
function notPassed(o: Outcome): string[] {
  return Object.entries(o.checks)
    .filter(([, status]) => status !== 'passed' && status !== 'skipped (not-applicable)')
    .map(([id, status]) => `${id} ${status}`);
}

/** The outcome, and the message of every check that neither passed nor was not applicable (printed at once). */
function explained(run: RunResult): Outcome {
  for (const c of run.checks)
    if (c.status !== 'passed' && c.skipKind !== 'not-applicable')
      console.log(`    ${c.id} ${c.status}: ${c.message.slice(0, 300)}`);
  return outcomeOf(run);
}

async function series(name: string, one: () => Promise<Outcome>): Promise<number> {
  const outcomes: Outcome[] = [];
  const t0 = Date.now();
  for (let i = 0; i < runs; i++) {
    const s = Date.now();
    const o = await one();
    outcomes.push(o);
    // Each run's line says at once how it differs from the first: a series stopped early still tells.
    const diff = i === 0 ? notPassed(o) : differences(outcomes[0]!, o);
    console.log(
      `${name} run ${i + 1}/${runs}: ${o.verdict}, ${o.exploration.length} generated requests, ${((Date.now() - s) / 1000).toFixed(1)} s, load ${loadavg()[0]!.toFixed(1)}${diff.length > 0 ? `; ${i === 0 ? 'not passed' : 'differs'}: ${diff.join('; ')}` : ''}`,
    );
  }
  const first = outcomes[0]!;
  const differing = outcomes.slice(1).map((o, i) => ({ run: i + 2, diff: differences(first, o) }));
  const verdicts = new Map<string, number>();
  for (const o of outcomes) verdicts.set(o.verdict, (verdicts.get(o.verdict) ?? 0) + 1);
  const bad = differing.filter((d) => d.diff.length > 0);
  console.log(
    `\n${name}: ${runs} runs in ${((Date.now() - t0) / 1000).toFixed(0)} s; verdicts ${[...verdicts].map(([v, n]) => `${v} ×${n}`).join(', ')}; ${runs - bad.length}/${runs} identical to the first (verdict, ${Object.keys(first.checks).length} check outcomes, ${first.exploration.length} generated requests)`,
  );
  for (const d of bad) console.log(`  run ${d.run}: ${d.diff.join('; ')}`);
  return bad.length;
}

const busy = ownLoad ? [busyLoop(), busyLoop()] : [];
// A bench stopped by a signal takes its busy loops with it.
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    for (const b of busy) b.kill('SIGKILL');
    process.exit(130);
  });
try {
  const plain =
    only === 'latency'
      ? 0
      : await series('embedded sandbox', async () =>
          explained(await certifySandbox({ timeScale: 60, exhaustLimits: true, thread: 'worker' })),
        );
  // Not process.exit(): the busy loops are killed in the finally below.
  const latent =
    only === 'embedded'
      ? 0
      : await series(`sandbox behind ${LATENCY_MS} ms`, async () => {
          const proxy = await startLatencyProxy(LATENCY_MS);
          try {
            return explained(
              await certifySandbox({
                timeScale: 60,
                exhaustLimits: true,
                thread: 'worker',
                adjust: (config) => {
                  proxy.to(config.baseUrl ?? '');
                  return { ...config, baseUrl: proxy.baseUrl };
                },
              }),
            );
          } finally {
            await proxy.close();
          }
        });
  process.exitCode = plain + latent === 0 ? 0 : 1;
} finally {
  for (const b of busy) b.kill('SIGKILL');
}
