// The check registry of every certifying command (run's checks, partner rules, receiver and scan
// checks): refuses malformed and duplicate ids, unknown suites and inconsistent evidence declarations
// at load, so a typo fails loudly instead of silently shadowing a check or blaming a party for a
// situation it never created; selection by suite and text.

import type { CheckDefinition } from './check.js';
import type { CheckDeclaration } from './check-declaration.js';
import { EVIDENCE_KINDS } from './evidence.js';

/** `<suite>.<segment>[.<segment>…]`, lower-case kebab segments. */
const ID = /^[a-z0-9]+(?:-[a-z0-9]+)*(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)+$/;

export class RegistryError extends Error {
  override readonly name = 'RegistryError';
}

/** A declaration the registry reads: a command's checks may also name the inputs they need. */
type Registered = CheckDeclaration & { readonly needs?: readonly string[] };

/**
 * The order of `checks`: suite order, then id (run's, and every listing's), or the order the command
 * declared them in within the suite order it gives (a command whose report follows its own table).
 */
export type RegistryOrder = 'suite-then-id' | 'as-declared';

export interface RegistryOptions<D> {
  order?: RegistryOrder;
  /**
   * What unlocks a check, as its command reads the inputs it needs (run's: src/api-setup/run-registry.ts);
   * by default what it declares in `unlockedBy`.
   */
  unlockOf?(check: D): string | undefined;
}

export interface CheckRegistry<D extends Registered = CheckDefinition> {
  readonly checks: readonly D[];
  readonly suites: readonly string[];
  get(id: string): D | undefined;
  select(opts: { suites?: readonly string[]; grep?: string }): D[];
}

/** Why a declaration is refused, or undefined: the rules of runner/evidence.ts, checked for every command alike. */
function declarationProblem(
  check: Registered,
  suiteOrder: readonly string[],
  unlock: string | undefined,
): string | undefined {
  if (!ID.test(check.id))
    return `check id "${check.id}" is malformed: use dotted lower-case kebab segments, "<suite>.<property>"`;
  if (!suiteOrder.includes(check.suite))
    return `check ${check.id} names suite "${check.suite}", which is not in the suite order`;
  if (!check.id.startsWith(`${check.suite}.`))
    return `check id "${check.id}" must start with its suite "${check.suite}."`;
  if (check.spec.length === 0) return `check ${check.id} cites no spec section`;
  if (!(EVIDENCE_KINDS as readonly string[]).includes(check.evidence))
    return `check ${check.id} declares evidence "${check.evidence}", none of ${EVIDENCE_KINDS.join(', ')}`;
  if (check.evidence === 'conditional' && !check.notApplicableWhen?.trim())
    return `check ${check.id} is conditional without notApplicableWhen (why it does not apply when its situation never arose)`;
  if (check.evidence !== 'conditional' && check.notApplicableWhen !== undefined)
    return `check ${check.id} gives notApplicableWhen on a ${check.evidence} check (only a conditional one may not apply)`;
  if (check.evidence === 'input' && !unlock?.trim())
    return `check ${check.id} is input without what unlocks it (an input need, or unlockedBy)`;
  if (check.evidence === 'provoked' && unlock !== undefined)
    return `check ${check.id} is provoked, but ${unlock} unlocks it (declare it input)`;
  if ((check.warns ?? []).some((w) => !w.trim())) return `check ${check.id} declares an empty warning case`;
  return undefined;
}

export function createRegistry<D extends Registered>(
  checks: readonly D[],
  suiteOrder: readonly string[],
  opts: RegistryOptions<D> = {},
): CheckRegistry<D> {
  const unlockOf = opts.unlockOf ?? ((c: D) => c.unlockedBy);
  const byId = new Map<string, D>();
  for (const check of checks) {
    const problem = declarationProblem(check, suiteOrder, unlockOf(check));
    if (problem) throw new RegistryError(problem);
    if (byId.has(check.id)) throw new RegistryError(`duplicate check id "${check.id}"`);
    byId.set(check.id, check);
  }
  const sorted =
    opts.order === 'as-declared' ? bySuite([...byId.values()], suiteOrder) : sortChecks([...byId.values()], suiteOrder);
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

const rankIn =
  (suiteOrder: readonly string[]) =>
  (s: string): number => {
    const i = suiteOrder.indexOf(s);
    return i < 0 ? suiteOrder.length : i;
  };

/** Suite order, keeping the declared order within a suite (Array.prototype.sort is stable). */
function bySuite<T extends { suite: string }>(items: T[], suiteOrder: readonly string[]): T[] {
  const rank = rankIn(suiteOrder);
  return items.sort((a, b) => rank(a.suite) - rank(b.suite));
}

/** Suite order, then id: the one order of every listing and report. */
export function sortChecks<T extends { suite: string; id: string }>(items: T[], suiteOrder: readonly string[]): T[] {
  const rank = rankIn(suiteOrder);
  return items.sort((a, b) => rank(a.suite) - rank(b.suite) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
