import type { Acts } from './points.js';

/** A named single violation of the spec that the sandbox can be started with (`--fault ID`). */
export interface FaultDefinition {
  /** Kebab/dotted id, stable: "runs.start.drops-trim". */
  id: string;
  /** Area of the spec, for --list-faults grouping. */
  area: string;
  /** One line: what the sandbox does wrong when this fault is on. */
  summary: string;
  /** Id of the certifier check meant to catch it (the fault matrix asserts this check fails). */
  caughtBy: string;
  /**
   * Other checks the same single violation must also fail (e.g. a fixture rule broken in every language
   * fails the he and the en read alike); the matrix runs each of them too.
   */
  alsoCaughtBy?: readonly string[];
  /**
   * Where the fault acts: a transform per named point (points.ts). A fault without `acts` is switched in
   * the code it breaks (the engine, the run view, webhooks, or a change of stored state).
   */
  acts?: Acts;
}
