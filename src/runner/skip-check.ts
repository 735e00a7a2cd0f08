// Thrown by shared setup when an input is missing (no organization can be made, say): the runner
// maps it to `skipped` with this reason, like an unmet declared need.
export class SkipCheck extends Error {
  override readonly name = 'SkipCheck';
}
