// The check registry: refuses malformed and duplicate ids at load, so a typo in a suite fails
// loudly instead of silently shadowing a check; selection by suite and text.

import type { CheckDefinition } from './check.js';

/** `<suite>.<segment>[.<segment>…]`, lower-case kebab segments. */
const ID = /^[a-z0-9]+(?:-[a-z0-9]+)*(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)+$/;

export class RegistryError extends Error {
  override readonly name = 'RegistryError';
}

export interface CheckRegistry {
  readonly checks: readonly CheckDefinition[];
  readonly suites: readonly string[];
  get(id: string): CheckDefinition | undefined;
  select(opts: { suites?: readonly string[]; grep?: string }): CheckDefinition[];
}

export function createRegistry(checks: readonly CheckDefinition[], suiteOrder: readonly string[]): CheckRegistry {
  const byId = new Map<string, CheckDefinition>();
  for (const check of checks) {
    if (!ID.test(check.id)) {
      throw new RegistryError(
        `check id "${check.id}" is malformed: use dotted lower-case kebab segments, "<suite>.<property>"`,
      );
    }
    if (!suiteOrder.includes(check.suite)) {
      throw new RegistryError(`check ${check.id} names suite "${check.suite}", which is not in the suite order`);
    }
    if (!check.id.startsWith(`${check.suite}.`)) {
      throw new RegistryError(`check id "${check.id}" must start with its suite "${check.suite}."`);
    }
    if (byId.has(check.id)) throw new RegistryError(`duplicate check id "${check.id}"`);
    if (check.spec.length === 0) throw new RegistryError(`check ${check.id} cites no spec section`);
    byId.set(check.id, check);
  }
  const sorted = sortChecks([...byId.values()], suiteOrder);
  return {
    checks: sorted,
    suites: suiteOrder,
    get: (id) => byId.get(id),
    select({ suites, grep }) {
      const needle = grep?.toLowerCase();
      return sorted.filter(
        (c) =>
          (!suites || suites.length === 0 || suites.includes(c.suite)) &&
          (!needle || c.id.toLowerCase().includes(needle) || c.title.toLowerCase().includes(needle)),
      );
    },
  };
}

/** Suite order, then id: the one order of every listing and report. */
export function sortChecks<T extends { suite: string; id: string }>(items: T[], suiteOrder: readonly string[]): T[] {
  const rank = (s: string): number => {
    const i = suiteOrder.indexOf(s);
    return i < 0 ? suiteOrder.length : i;
  };
  return items.sort((a, b) => rank(a.suite) - rank(b.suite) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
