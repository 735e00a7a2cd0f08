// An `SVC_*` variable no option declares is most likely a typo (SVC_STRICTT): one warning line each,
// naming the nearest known variable. Not an error: other tools may use the prefix too.

/** Levenshtein distance, two rows. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** One line per unknown SVC_* variable of `env`, in name order, each suggesting the nearest known one. */
export function unknownEnvWarnings(env: Record<string, string | undefined>, known: readonly string[]): string[] {
  const knownSet = new Set(known);
  return Object.keys(env)
    .filter((name) => name.startsWith('SVC_') && !knownSet.has(name))
    .sort()
    .map((name) => {
      // Ties go to the first in alphabetical order, so the line is the same on every run.
      const nearest = [...knownSet].sort().reduce<{ name: string; distance: number } | undefined>((best, candidate) => {
        const distance = editDistance(name, candidate);
        return !best || distance < best.distance ? { name: candidate, distance } : best;
      }, undefined);
      return `warning: ${name} is not a svc-certify variable${nearest ? ` (did you mean ${nearest.name}?)` : ''}`;
    });
}
