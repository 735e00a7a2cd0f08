// Every check of every certifying command in one list, for `svc-certify list`: read from each command's
// registry (run's suites, the partner rules, the receiver checks and the scan checks), every entry the
// same way, each with the command that runs it.

import { ALL_CHECKS, SUITE_ORDER } from '../../suites/index.js';
import { partnerRegistry } from '../partner/rules/index.js';
import { RECEIVER_REGISTRY } from '../receiver-cert/receiver-checks.js';
import { SCAN_REGISTRY } from '../scan/scan-checks.js';
import type { Need } from '../api-setup/needs.js';
import type { SpecSection } from '../spec/section-names.js';
import type { CheckDeclaration } from '../runner/check-declaration.js';
import type { Evidence } from '../runner/evidence.js';
import { unlockOf } from '../api-setup/needs.js';
import { createRunRegistry } from '../api-setup/run-registry.js';
import type { CheckRegistry } from '../runner/registry.js';

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
  /** Guidance, not a duty (only warns): the partner's client-guidance rules. */
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

/** What the catalogue reads of a check: the shape every command shares, with run's needs and a partner rule's hint. */
type Listed = CheckDeclaration<SpecSection> & { readonly needs?: readonly Need[]; readonly hint?: string };

/** One entry, the same for every command: only what a check declares, never how the command runs it. */
function entryOf(command: CertifyingCommand, c: Listed): CatalogueEntry {
  const unlock = unlockOf(c.needs, c.unlockedBy);
  return {
    command,
    suite: c.suite,
    id: c.id,
    title: c.title,
    spec: [...c.spec],
    needs: [...(c.needs ?? [])],
    ...(c.hint !== undefined ? { hint: c.hint } : {}),
    ...(c.advisory ? { advisory: true } : {}),
    evidence: c.evidence,
    ...(c.notApplicableWhen !== undefined ? { notApplicableWhen: c.notApplicableWhen } : {}),
    ...(unlock !== undefined ? { unlock } : {}),
    warns: [...(c.warns ?? [])],
  };
}

/** The registry of each certifying command (runner/registry.ts: ids, suites and declarations validated), in its listing order. */
function registries(): Record<CertifyingCommand, CheckRegistry<Listed>> {
  return {
    run: createRunRegistry(ALL_CHECKS, SUITE_ORDER),
    partner: partnerRegistry(() => []),
    receiver: RECEIVER_REGISTRY,
    scan: SCAN_REGISTRY,
  };
}

/** Every check, by command in CERTIFYING_COMMANDS order, suites in each command's own order. */
export function checkCatalogue(): CatalogueEntry[] {
  const byCommand = registries();
  return CERTIFYING_COMMANDS.flatMap((command) => byCommand[command].checks.map((c) => entryOf(command, c)));
}
