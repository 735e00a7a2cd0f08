// Every check of every certifying command in one list, for `svc-certify list`: run's suites, the
// partner rules, the receiver checks and the scan checks, each with the command that runs it.

import { ALL_CHECKS, SUITE_ORDER } from '../../suites/index.js';
import { PARTNER_SUITES, partnerRules } from '../partner/rules/index.js';
import { RECEIVER_CHECKS, RECEIVER_SUITE, URL_CHECK } from '../receiver-cert/receiver-checks.js';
import { SCAN_CHECKS, SCAN_SPEC, SCAN_SUITE } from '../scan/scan-checks.js';
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
  }));
  const receiver = [URL_CHECK, ...RECEIVER_CHECKS].map((c): CatalogueEntry => ({
    command: 'receiver',
    suite: RECEIVER_SUITE,
    id: c.id,
    title: c.title,
    spec: [...c.spec],
    needs: [],
  }));
  const scan = SCAN_CHECKS.map((c): CatalogueEntry => ({
    command: 'scan',
    suite: SCAN_SUITE,
    id: c.id,
    title: c.title,
    spec: [...SCAN_SPEC],
    needs: [],
  }));
  return [...run, ...partner, ...receiver, ...scan];
}
