// Whether the command runs in a CI job: the `CI` variable every hosted CI sets (GitHub Actions,
// GitLab, Buildkite, Jenkins plugins…). A pipeline must never pass on the reference sandbox because a
// secret holding its target was missing, so `run` certifies the embedded sandbox there only when asked.

/** The values a person writes to say "not CI"; anything else set means CI, as the CI vendors document it. */
const FALSY = new Set(['', '0', 'false', 'no', 'off']);

export function isCiEnvironment(env: Record<string, string | undefined>): boolean {
  const value = env['CI'];
  return value !== undefined && !FALSY.has(value.trim().toLowerCase());
}
