// The verdict, decided once per certification and stored in the RunResult: the exit code and every
// reporter read this one decision, so they cannot disagree. The contract is docs/design.md's *Verdict*.

import {
  leavesIncomplete,
  skipKindOf,
  type CheckResult,
  type MissingInput,
  type RunResult,
  type StoredVerdict,
  type UncertifiedBy,
  type Verdict,
} from './results.js';

export interface VerdictDecision {
  verdict: Verdict;
  /** What left the certification incomplete (empty unless some skip did). */
  missing: MissingInput[];
  /** Verdict `passed-not-certified`: what kept it from being a certification (empty otherwise). */
  uncertifiedBy: UncertifiedBy[];
}

/**
 * What keeps a run from certifying even when nothing failed: a selection left checks out, the gate
 * profile left the certification-only checks out, or the baseline accepted a failure or a skip (an
 * accepted entry is a known gap, not evidence that the target keeps the spec there).
 */
function uncertifiedByOf(result: Pick<RunResult, 'checks' | 'selection' | 'gate'>): UncertifiedBy[] {
  const by: UncertifiedBy[] = [];
  if ((result.selection?.deselected ?? 0) > 0) by.push('selection');
  if (result.gate !== undefined) by.push('gate');
  if (result.checks.some((c) => c.expected !== undefined)) by.push('baseline');
  return by;
}

/**
 * interrupted (a signal came first) > not-certified (a failure, an engine error, a baseline problem;
 * with --strict also a warning or a missing input) > incomplete (a needs-input, not-exercised or
 * inconclusive skip the baseline does not accept) > passed-not-certified (a selection, the gate profile
 * or accepted baseline entries: uncertifiedByOf) > certified.
 */
export function decideVerdict(
  result: Pick<RunResult, 'summary' | 'checks' | 'baseline' | 'interrupted' | 'selection' | 'gate'>,
  strict: boolean,
): VerdictDecision {
  const missing = missingInputs(result.checks);
  const none: UncertifiedBy[] = [];
  if (result.interrupted) return { verdict: 'interrupted', missing, uncertifiedBy: none };
  const { summary } = result;
  if (summary.failed > 0 || summary.error > 0 || (result.baseline?.problems.length ?? 0) > 0)
    return { verdict: 'not-certified', missing, uncertifiedBy: none };
  // `?? 0`: a results.json written before warnings existed has no such count.
  if (strict && (summary.warning ?? 0) > 0) return { verdict: 'not-certified', missing, uncertifiedBy: none };
  // Nothing judged at all (every selected check not applicable, say `--suite production` against a
  // sandbox): no evidence, so no certificate and no passed selection either.
  if (
    missing.length === 0 &&
    summary.total > 0 &&
    summary.passed + (summary.warning ?? 0) + (summary.expected ?? 0) === 0
  ) {
    missing.push({
      kind: 'inconclusive',
      what: 'no selected check applies to this target, so nothing was judged: select checks that apply (svc-certify list)',
      checks: [],
    });
  }
  if (missing.length > 0) return { verdict: strict ? 'not-certified' : 'incomplete', missing, uncertifiedBy: none };
  const uncertifiedBy = uncertifiedByOf(result);
  if (uncertifiedBy.length > 0) return { verdict: 'passed-not-certified', missing, uncertifiedBy };
  return { verdict: 'certified', missing, uncertifiedBy };
}

/**
 * The skips that leave a certification incomplete, grouped by what would run them: set-up findings
 * first (an input that was given but does not work explains the rest, and is the operator's to fix
 * before anything is blamed), then largest group first.
 */
function missingInputs(checks: readonly CheckResult[]): MissingInput[] {
  const groups = new Map<string, MissingInput>();
  for (const c of checks) {
    if (!leavesIncomplete(c)) continue;
    const kind = skipKindOf(c)!;
    const what = kind === 'needs-input' ? (c.unlock ?? c.message) : c.message;
    const key = `${kind}\u0000${what}`;
    const group = groups.get(key) ?? { kind, what, checks: [] };
    group.checks.push(c.id);
    groups.set(key, group);
  }
  const setUpFirst = (m: MissingInput): number => (m.kind === 'set-up' ? 0 : 1);
  return [...groups.values()].sort((a, b) => setUpFirst(a) - setUpFirst(b) || b.checks.length - a.checks.length);
}

/** One line a person acts on: "--expired-code unlocks 1 check". */
export function describeMissing(m: MissingInput): string {
  const n = `${m.checks.length} check${m.checks.length === 1 ? '' : 's'}`;
  switch (m.kind) {
    case 'needs-input':
      return `${m.what} would run ${n}`;
    case 'set-up':
      return `set-up, ${n} not run: ${m.what}`;
    case 'not-exercised':
      return `${n} not exercised: ${m.what.replace(/^not exercised:\s*/, '')}`;
    default:
      return m.checks.length === 0 ? m.what : `${n} inconclusive: ${m.what}`;
  }
}

/** A stored verdict as today's: `passed-selection` (written by earlier versions) is a passed run that is not a certification. */
export function currentVerdict(stored: StoredVerdict): Verdict {
  return stored === 'passed-selection' ? 'passed-not-certified' : stored;
}

/** The stored verdict; a results.json written before verdicts were stored is decided from its checks. */
export function verdictOfResult(result: RunResult): Verdict {
  return result.verdict !== undefined
    ? currentVerdict(result.verdict)
    : decideVerdict(result, result.config['strict'] === true).verdict;
}

/** Why a stored passed run is not a certification; for a result written before the field, from its checks. */
export function uncertifiedByOfResult(result: RunResult): UncertifiedBy[] {
  if (verdictOfResult(result) !== 'passed-not-certified') return [];
  return result.uncertifiedBy ?? uncertifiedByOf(result);
}

/** A dossier: the worst part decides (interrupted, then not-certified, incomplete, passed-not-certified). */
export function combineVerdicts(verdicts: readonly Verdict[]): Verdict {
  const order: Verdict[] = ['interrupted', 'not-certified', 'incomplete', 'passed-not-certified'];
  return order.find((v) => verdicts.includes(v)) ?? 'certified';
}

/** docs/design.md's exit codes: 0 certified or passed-not-certified, 1 not-certified, 3 incomplete, 130/143 interrupted. */
export function exitCodeOf(verdict: Verdict, interrupted?: RunResult['interrupted']): number {
  switch (verdict) {
    case 'certified':
    case 'passed-not-certified':
      return 0;
    case 'not-certified':
      return 1;
    case 'incomplete':
      return 3;
    case 'interrupted':
      return interrupted?.signal === 'SIGTERM' ? 143 : 130;
  }
}

/** The label reports print; passed-not-certified is never printed as "Certified". */
export function verdictLabel(verdict: Verdict): string {
  return {
    certified: 'Certified',
    'passed-not-certified': 'Passed, not a certification',
    'not-certified': 'Not certified',
    incomplete: 'Incomplete',
    interrupted: 'Interrupted',
  }[verdict];
}
