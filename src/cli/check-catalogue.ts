// Every check of every certifying command in one list, for `svc-certify list`: run's suites, the
// partner rules, the receiver checks and the scan checks, each with the command that runs it.

import { ALL_CHECKS, SUITE_ORDER } from '../../suites/index.js';
import { PARTNER_SUITES, partnerRules } from '../partner/rules/index.js';
import { RECEIVER_CHECKS, RECEIVER_SUITE, URL_CHECK } from '../receiver-cert/receiver-checks.js';
import { SCAN_CHECKS, SCAN_SPEC, SCAN_SUITE } from '../scan/scan-checks.js';
import type { Evidence, EvidenceDeclaration } from '../runner/evidence.js';
import { unlockOf } from '../runner/needs.js';
import { sortChecks } from '../runner/registry.js';

export const CERTIFYING_COMMANDS = ['run', 'partner', 'receiver', 'scan'] as const;
export type CertifyingCommand = (typeof CERTIFYING_COMMANDS)[number];

export interface CatalogueEntry {
  command: CertifyingCommand;
  suite: string;
  id: string;
  title: string;
  spec: string[];
  /** run: the inputs a check needs (a missing one skips it); partner: what the partner does to exercise the rule. */
  needs: string[];
  hint?: string;
  /** partner: client guidance, not a duty (only warns). */
  advisory?: boolean;
  /** How the check gets its evidence (runner/evidence.ts). */
  evidence: Evidence;
  /** conditional: why it does not apply when its situation never arose. */
  notApplicableWhen?: string;
  /** What operator input unlocks it (input checks; derived from a run check's needs). */
  unlock?: string;
  /** The cases in which it may warn (empty: it cannot). */
  warns: string[];
}

/** The declaration fields of an entry, `needs` giving a run check's unlock. */
function declared(d: EvidenceDeclaration, needs?: Parameters<typeof unlockOf>[0]) {
  const unlock = unlockOf(needs, d.unlockedBy);
  return {
    evidence: d.evidence,
    ...(d.notApplicableWhen !== undefined ? { notApplicableWhen: d.notApplicableWhen } : {}),
    ...(unlock !== undefined ? { unlock } : {}),
    warns: [...(d.warns ?? [])],
  };
}

/** Every check, by command in CERTIFYING_COMMANDS order, suites in each command's own order. */
export function checkCatalogue(): CatalogueEntry[] {
  const run = sortChecks([...ALL_CHECKS], SUITE_ORDER).map((c): CatalogueEntry => ({
    command: 'run',
    suite: c.suite,
    id: c.id,
    title: c.title,
    spec: [...c.spec],
    needs: [...(c.needs ?? [])],
    ...declared(c, c.needs),
  }));
  const partner = sortChecks(
    partnerRules(() => []),
    PARTNER_SUITES,
  ).map((r): CatalogueEntry => ({
    command: 'partner',
    suite: r.suite,
    id: r.id,
    title: r.title,
    spec: [...r.spec],
    needs: [],
    hint: r.hint,
    ...(r.advisory ? { advisory: true } : {}),
    ...declared(r),
  }));
  const receiver = [URL_CHECK, ...RECEIVER_CHECKS].map((c): CatalogueEntry => ({
    command: 'receiver',
    suite: RECEIVER_SUITE,
    id: c.id,
    title: c.title,
    spec: [...c.spec],
    needs: [],
    ...declared(c),
  }));
  const scan = SCAN_CHECKS.map((c): CatalogueEntry => ({
    command: 'scan',
    suite: SCAN_SUITE,
    id: c.id,
    title: c.title,
    spec: [...SCAN_SPEC],
    needs: [],
    ...declared(c),
  }));
  return [...run, ...partner, ...receiver, ...scan];
}
