// What "the same build gets the same verdict" compares between two certifications of the same target:
// the verdict, every check's outcome (status, and the kind of a skip) and the exploration's requests in
// order (each check's generated cases, by label: fresh identifiers carry a nonce, the cases do not).
// Shared by test/repeat-outcomes.test.ts and `npm run bench:repeat`.

import type { RunResult } from '../../src/runner/results.js';
import { verdictOfResult } from '../../src/runner/verdict.js';
import { forward, startProxy, type Proxy } from './loopback-server.js';

export interface Outcome {
  verdict: string;
  checks: Record<string, string>;
  exploration: string[];
}

export function outcomeOf(run: RunResult): Outcome {
  const checks: Record<string, string> = {};
  for (const c of run.checks) checks[c.id] = c.skipKind ? `${c.status} (${c.skipKind})` : c.status;
  const exploration = run.checks
    .filter((c) => c.suite === 'explore')
    .flatMap((c) =>
      c.exchanges.filter((e) => /^(case \d+|shrink)/.test(e.label ?? '')).map((e) => `${c.id} ${e.label ?? ''}`),
    );
  // certify() leaves the verdict to the reports' step: decided here as that step decides it.
  return { verdict: run.verdict ?? verdictOfResult(run), checks, exploration };
}

/** Every way `b` differs from `a`, one line each (empty: the same outcome). */
export function differences(a: Outcome, b: Outcome): string[] {
  const out: string[] = [];
  if (a.verdict !== b.verdict) out.push(`verdict: ${a.verdict} → ${b.verdict}`);
  for (const id of new Set([...Object.keys(a.checks), ...Object.keys(b.checks)]))
    if (a.checks[id] !== b.checks[id]) out.push(`${id}: ${a.checks[id] ?? '(absent)'} → ${b.checks[id] ?? '(absent)'}`);
  if (a.exploration.join('\n') !== b.exploration.join('\n')) {
    const i = a.exploration.findIndex((x, k) => x !== b.exploration[k]);
    const at = i === -1 ? a.exploration.length : i;
    out.push(
      `exploration: ${a.exploration.length} → ${b.exploration.length} requests, first difference at ${at}: ${a.exploration[at] ?? '(none)'} → ${b.exploration[at] ?? '(none)'}`,
    );
  }
  return out;
}

/**
 * A proxy that answers every request `ms` later than its upstream would: a target far away. Its
 * upstream is set once known (`to`), before the first request.
 */
export function startLatencyProxy(ms: number): Promise<Proxy> {
  return startProxy((req, res, body, upstream) => {
    setTimeout(() => forward(upstream, req, res, body), ms);
  });
}
