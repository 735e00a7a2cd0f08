import type { FaultDefinition } from './types.js';

/** Faults of reading a run (run-view.ts, routes/run-lookup.ts): each breaks one rule of GET /runs/{run_id}. */
export const runsReadFaults = [
  {
    id: 'runs-read.verdict-out-of-enum',
    area: 'runs-read',
    summary: 'real-run candidates carry `verdict: fair`, outside strong/good/weak',
    caughtBy: 'runs-read.run-schema',
  },
  {
    id: 'runs-read.terminal-reverts-to-running',
    area: 'runs-read',
    summary: 'a finished run reads `running` again after its terminal status was shown once',
    caughtBy: 'runs-read.status-transitions',
  },
  {
    id: 'runs-read.candidate-dropped-after-end',
    area: 'runs-read',
    summary: 'reads after a run was seen finished no longer list its first candidate',
    caughtBy: 'runs-read.candidate-list-grows',
  },
  {
    id: 'runs-read.unknown-run-not-found-code',
    area: 'runs-read',
    summary: 'an unknown run id answers 404 `not_found` instead of `run_not_found`',
    caughtBy: 'runs-read.run-not-found',
  },
  {
    id: 'runs-read.real-run-never-ends',
    area: 'runs-read',
    summary: 'reads of a real run say `running` forever, however long ago the engine finished',
    caughtBy: 'runs-read.real-run-ends-within-30-minutes',
  },
  {
    id: 'runs-read.function-error-not-blocking',
    area: 'runs-read',
    summary: '`function_error` on a failed run has severity `warning` instead of `blocking`',
    caughtBy: 'runs-read.function-error-blocking-empty-state',
  },
  {
    id: 'runs-read.failed-run-without-notice',
    area: 'runs-read',
    summary: 'a failed run (real or fixture) reads with an empty `notices` list: nothing explains the failure',
    caughtBy: 'runs-read.failed-run-explained-by-notice',
  },
  {
    id: 'runs-read.screened-drops-after-end',
    area: 'runs-read',
    summary:
      'once a real run was seen finished, `progress.screened` counts only the confirmed candidates, below what earlier reads said',
    caughtBy: 'runs-read.screened-never-decreases',
  },
] as const satisfies readonly FaultDefinition[];
