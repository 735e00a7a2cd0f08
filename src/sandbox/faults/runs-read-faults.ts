// Reading a run (Endpoints › GET /runs/{run_id}, Run, Candidate, Notice). What a read shows acts at the runView
// point of run-view.ts; what the engine computes is switched in src/sandbox/engine, and a candidate dropped
// from the stored quotes in run-view.ts; an unknown or foreign run acts at the refusal point.
import { reword } from './reshape.js';
import { ApiError } from '../api-error.js';
import { RawNumber } from '../json.js';
import { eachCandidate, eachNotice, idDigits, progressEdited } from './run-view-edits.js';
import type { FaultDefinition } from './types.js';
import { onRefusal } from './points.js';

export const runsReadFaults = [
  {
    id: 'runs-read.candidate-id-string',
    area: 'runs-read',
    summary: 'candidate `id` is serialized as a JSON string',
    caughtBy: 'runs-read.candidate-id-int64',
    acts: {
      runView: (v) =>
        eachCandidate(v, (c) => {
          c.id = idDigits(c.id);
        }),
    },
  },
  {
    id: 'runs-read.candidate-id-float',
    area: 'runs-read',
    summary: 'candidate `id` is serialized with a fraction (`990000000001.0`)',
    caughtBy: 'runs-read.candidate-id-int64',
    acts: {
      runView: (v) =>
        eachCandidate(v, (c) => {
          c.id = new RawNumber(`${idDigits(c.id)}.0`);
        }),
    },
  },
  {
    id: 'runs-read.more-than-target',
    area: 'runs-read',
    summary: 'a fixture run lists one candidate more than `target_count`',
    caughtBy: 'fixtures.never-more-than-target-count',
  },
  {
    id: 'runs-read.notice-without-ref',
    area: 'runs-read',
    summary: '`on_requirement` and `on_candidate` notices lose their `ref`',
    caughtBy: 'fixtures.cert-notice-unknown.read-matches-table',
    acts: {
      runView: (v) =>
        eachNotice(v, (n) => {
          delete n.ref;
        }),
    },
  },
  {
    id: 'runs-read.other-org-403',
    area: 'runs-read',
    summary: "another organization's run answers 403 instead of 404 `run_not_found`",
    caughtBy: 'runs-read.other-organization-404',
    acts: {
      refusal: onRefusal('run-not-found', (e, f) => (e && f.foreign ? new ApiError(403, 'forbidden') : e)),
    },
  },
  {
    id: 'runs-read.candidates-exceed-target',
    area: 'runs-read',
    summary: 'a real run lists one candidate more than its target_count',
    caughtBy: 'runs-read.candidates-within-target',
  },
  {
    id: 'runs-read.confirmed-decreases',
    area: 'runs-read',
    summary: 'progress.confirmed drops by one when the run reaches a terminal state',
    caughtBy: 'runs-read.progress-monotonic',
  },
  {
    id: 'runs-read.target-not-target-count',
    area: 'runs-read',
    summary: "progress.target is one more than the run's target_count",
    caughtBy: 'runs-read.progress-consistent',
  },
  {
    id: 'runs-read.requirements-out-of-order',
    area: 'runs-read',
    summary: "a candidate's requirements are listed in reverse index order",
    caughtBy: 'runs-read.candidate-requirements-in-index-order',
  },
  {
    id: 'runs-read.requirement-missing',
    area: 'runs-read',
    summary: "the last run requirement is missing from every candidate's requirements",
    caughtBy: 'runs-read.candidate-requirements-complete',
  },
  {
    id: 'runs-read.v1-impossible-notice',
    area: 'runs-read',
    summary: 'a real run emits widen_hint, one of the four notice codes that cannot occur in v1',
    caughtBy: 'runs-read.notice-codes-possible-in-v1',
  },
  {
    id: 'runs-read.notice-requirement-index-out-of-range',
    area: 'runs-read',
    summary:
      "requirement_blockers notices in slot on_requirement carry a ref.requirement_index one past the run's last requirement",
    caughtBy: 'runs-read.notice-ref-matches-slot',
  },
  {
    id: 'runs-read.notice-language-ignored',
    area: 'runs-read',
    summary: 'notice title and body are English even when x-svc-lang is he',
    caughtBy: 'runs-read.notice-language',
  },
  {
    id: 'runs-read.short-run-without-notice',
    area: 'runs-read',
    summary: 'a real run that completes with fewer candidates than its target_count carries no notice at all',
    caughtBy: 'runs-read.short-run-explained-by-notice',
  },
  {
    id: 'runs-read.requirement-blockers-above-list',
    area: 'runs-read',
    summary: 'a real run places its `requirement_blockers` notices in slot `above_list` instead of `on_requirement`',
    caughtBy: 'runs-read.requirement-blockers-on-requirement',
  },
  {
    id: 'runs-read.verdict-out-of-enum',
    area: 'runs-read',
    summary: 'real-run candidates carry `verdict: fair`, outside strong/good/weak',
    caughtBy: 'runs-read.run-schema',
    acts: {
      runView: (v, f) =>
        f.fixture
          ? v
          : eachCandidate(v, (c) => {
              c.verdict = 'fair';
            }),
    },
  },
  {
    id: 'runs-read.terminal-reverts-to-running',
    area: 'runs-read',
    summary: 'a finished run reads `running` again after its terminal status was shown once',
    caughtBy: 'runs-read.status-transitions',
    acts: {
      runView: (v, f) => (f.terminalReadsBefore > 0 ? { ...v, status: 'running' } : v),
    },
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
    acts: {
      refusal: onRefusal('run-not-found', (e, f) => (e && !f.foreign ? reword(e, { code: 'not_found' }) : e)),
    },
  },
  {
    id: 'runs-read.real-run-never-ends',
    area: 'runs-read',
    summary: 'reads of a real run say `running` forever, however long ago the engine finished',
    caughtBy: 'runs-read.real-run-ends-within-30-minutes',
    acts: {
      runView: (v, f) => (f.fixture ? v : { ...v, status: 'running' }),
    },
  },
  {
    id: 'runs-read.function-error-not-blocking',
    area: 'runs-read',
    summary: '`function_error` on a failed run has severity `warning` instead of `blocking`',
    caughtBy: 'runs-read.function-error-blocking-empty-state',
    acts: {
      runView: (v) =>
        eachNotice(v, (n) => {
          if (n.code === 'function_error') n.severity = 'warning';
        }),
    },
  },
  {
    id: 'runs-read.failed-run-without-notice',
    area: 'runs-read',
    summary: 'a failed run (real or fixture) reads with an empty `notices` list: nothing explains the failure',
    caughtBy: 'runs-read.failed-run-explained-by-notice',
    acts: {
      runView: (v) => (v.status === 'failed' ? { ...v, notices: [] } : v),
    },
  },
  {
    id: 'runs-read.screened-drops-after-end',
    area: 'runs-read',
    summary:
      'once a real run was seen finished, `progress.screened` counts only the confirmed candidates, below what earlier reads said',
    caughtBy: 'runs-read.screened-never-decreases',
    acts: {
      runView: (v, f) =>
        f.terminalReadsBefore > 0
          ? progressEdited(v, (p) => {
              p.screened = p.confirmed;
            })
          : v,
    },
  },
  {
    id: 'runs-read.screened-down-every-other-read',
    area: 'runs-read',
    summary:
      'once a real run was seen finished, `progress.screened` reads one above the count on every other read and the count on the next: it goes down on every other read, and no single read after the end shows it against the reads before',
    caughtBy: 'runs-read.screened-never-decreases',
    acts: {
      runView: (v, f) =>
        f.terminalReadsBefore % 2 === 1
          ? progressEdited(v, (p) => {
              p.screened = Number(p.screened) + 1;
            })
          : v,
    },
  },
] as const satisfies readonly FaultDefinition[];
