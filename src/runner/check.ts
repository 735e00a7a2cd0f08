// The check model of the engine. A check is data plus one async function; it reports what it saw
// through what its context gives it and never throws on purpose: a thrown exception is an engine error.
// The engine knows nothing of the API a check judges: what a check needs and what its context holds
// (the API's: src/api-setup/check.ts) are type parameters; the engine gives every check only the
// controls below and a time budget.

import type { CheckDeclaration } from './check-declaration.js';
import type { SkipDecision } from './outcome.js';
import type { SkipKind } from './results.js';

/**
 * A check of a command the engine runs (the shape every command shares, runner/check-declaration.ts,
 * plus what it needs and how long it may take): `Context` is what its `run` is given, `Need` the
 * inputs it may name in `needs` (the command decides which unlock it, runner/registry.ts), `Section`
 * how it names the spec's sections.
 */
/** A check's spec-time budget when it declares none. */
export const DEFAULT_CHECK_TIMEOUT_MS = 60_000;

export interface CheckDefinition<
  Context = CheckControls,
  Need extends string = string,
  Section extends string = string,
> extends CheckDeclaration<Section> {
  needs?: Need[];
  /** Spec-time budget of the check in ms before the time scale (default 60 s). */
  timeoutMs?: number;
  /**
   * Starts only once every other check of the plan has ended: a check that judges what the others did
   * (every read of a run any check made) sees all of it, whatever order the others ran in.
   */
  afterOthers?: true;
  run(t: Context): Promise<void>;
}

/** What the engine gives every check, whatever its command: skipping, waiting, progress and its signal. */
export interface CheckControls {
  /**
   * Marks the check skipped (the check should return right after). The kind says what the skip does to
   * the verdict: `needs-input` (name what would run it in `unlock`), `inconclusive` (the target's
   * behaviour left nothing to judge), `not-applicable` (no such thing in this environment).
   */
  skip(reason: string, kind: SkipKind, unlock?: string): void;
  skip(decision: SkipDecision): void;
  /** Waits `specMs` of spec time (divided by the time scale); resolves early if aborted. */
  sleep(specMs: number): Promise<void>;
  /** Live progress for long waits ("cert-slow: 7/10 confirmed, 1:12 left"). */
  progress(message: string): void;
  readonly signal: AbortSignal;
}
