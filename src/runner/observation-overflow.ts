// Observations past MAX_OBSERVATIONS_PER_CHECK are counted, not kept: one last observation says how
// many more there were, and fails when any of them was a failure (a warning never hides one).

import { MAX_OBSERVATIONS_PER_CHECK } from './limits.js';
import type { Observation } from './results.js';

export class ObservationOverflow {
  private count = 0;
  private failures = 0;
  private spec: string | undefined;

  add(obs: Omit<Observation, 'exchange'>): void {
    this.count++;
    if (obs.severity !== 'warning') this.failures++;
    this.spec ??= obs.spec;
  }

  /** The "+K more" observation, when any was left out; `kept` is how many the check kept. */
  observation(kept: number): Observation | undefined {
    if (this.count === 0 || this.spec === undefined) return undefined;
    const which =
      this.failures === 0
        ? 'warnings'
        : this.failures === this.count
          ? 'failures'
          : `of which ${this.failures} failures`;
    return {
      ...(this.failures === 0 ? { severity: 'warning' as const } : {}),
      message: `+${this.count} more observations (${which}) not kept: ${kept + this.count} in all, a check keeps its first ${MAX_OBSERVATIONS_PER_CHECK}`,
      spec: this.spec,
    };
  }
}
