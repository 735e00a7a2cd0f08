// An `SVC_*` variable no option declares is most likely a typo (SVC_STRICTT): one warning line each,
// naming the nearest known variable. Not an error: other tools may use the prefix too. The names
// Kubernetes injects for a Service named `svc…` are not typos and are never warned about; a renamed
// variable (SVC_PORT → SVC_PORT_NUMBER) is read for one release and warned about as such.

import { isKubernetesShapedName, isKubernetesShapedValue } from './k8s-env.js';

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
    .filter((name) => name.startsWith('SVC_') && !knownSet.has(name) && !isKubernetesShapedName(name))
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

/** A variable renamed in this release: the name read for one more release, and the name to use. */
export interface FormerVariable {
  former: string;
  current: string;
}

/**
 * One line per renamed variable set with a value of ours. Kubernetes' own value for the name
 * (`SVC_PORT=tcp://10.0.0.1:80`) is neither read nor warned about: the operator did not set it.
 */
export function formerEnvWarnings(
  env: Record<string, string | undefined>,
  renamed: readonly FormerVariable[],
): string[] {
  return renamed.flatMap(({ former, current }) => {
    const value = env[former];
    if (value === undefined || value === '' || isKubernetesShapedValue(value)) return [];
    if (env[current] !== undefined && env[current] !== '')
      return [`warning: ${former} is ignored: ${current}, its new name, is set too; remove ${former}`];
    return [
      `warning: ${former} is read for this release only: rename it ${current} (Kubernetes sets names like ${former} for a Service named svc)`,
    ];
  });
}
