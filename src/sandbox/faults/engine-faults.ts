import type { FaultDefinition } from './types.js';

/** Faults of the matching engine (src/sandbox/engine) and of sandbox presentation (src/sandbox/presentation). */
export const engineFaults = [
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
    id: 'sandbox.name-not-masked',
    area: 'sandbox',
    summary: 'candidate names are shown unmasked, in name and inside evidence',
    caughtBy: 'sandbox.candidate-name-masked',
  },
  {
    id: 'sandbox.email-left-in-evidence',
    area: 'sandbox',
    summary: 'e-mail addresses inside evidence, title, company and location are not hidden',
    caughtBy: 'sandbox.contact-identifiers-masked',
  },
  {
    id: 'sandbox.schemeless-link-left',
    area: 'sandbox',
    summary: 'only links written with a scheme or www. are hidden: a bare `linkedin.com/in/…` stays in evidence',
    caughtBy: 'sandbox.contact-identifiers-masked',
  },
  {
    id: 'sandbox.bare-phone-left',
    area: 'sandbox',
    summary: 'only phone numbers written with separators are hidden: `0521234567` stays in evidence',
    caughtBy: 'sandbox.contact-identifiers-masked',
  },
] as const satisfies readonly FaultDefinition[];
