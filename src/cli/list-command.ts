// `svc-certify list`: the checks of every certifying command (run, partner, receiver, scan) with id,
// title, spec sections, how each gets its evidence (provoked, conditional, input) and what may make it
// warn; --json for tools; --by-spec the traceability matrix from every section of the spec to the
// checks citing it, or the reason none does.

import { isOneOf } from '../narrow.js';
import { ConfigError } from '../config/config-error.js';
import { loadSpec } from '../spec/spec-file.js';
import { uncoveredReason } from '../../suites/index.js';
import { coveredCount, specCoverage } from '../report/spec-coverage.js';
import { CERTIFYING_COMMANDS, checkCatalogue, type CatalogueEntry, type CertifyingCommand } from './check-catalogue.js';

export interface ListFlags {
  suite?: string[];
  grep?: string;
  bySpec?: boolean;
  json?: boolean;
  command?: string[];
}

const commaList = (values: readonly string[] | undefined): string[] =>
  (values ?? [])
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);

function isCommand(name: string): name is CertifyingCommand {
  return isOneOf(CERTIFYING_COMMANDS, name);
}

/** The catalogue entries the flags select; a selection matching nothing is a usage error, as for `run`. */
function selectEntries(flags: ListFlags, catalogue: readonly CatalogueEntry[] = checkCatalogue()): CatalogueEntry[] {
  const commands = commaList(flags.command);
  for (const c of commands)
    if (!isCommand(c))
      throw new ConfigError(`--command: unknown command "${c}"; choose from ${CERTIFYING_COMMANDS.join(', ')}`);
  const inCommands = catalogue.filter((e) => commands.length === 0 || commands.includes(e.command));
  const suites = commaList(flags.suite);
  const known = [...new Set(inCommands.map((e) => e.suite))];
  for (const s of suites)
    if (!known.includes(s)) throw new ConfigError(`--suite: unknown suite "${s}"; choose from ${known.join(', ')}`);
  const needle = flags.grep?.toLowerCase();
  const selected = inCommands.filter(
    (e) =>
      (suites.length === 0 || suites.includes(e.suite)) &&
      (!needle || e.id.toLowerCase().includes(needle) || e.title.toLowerCase().includes(needle)),
  );
  if (selected.length === 0) {
    const by = [
      commands.length ? `--command ${commands.join(',')}` : '',
      suites.length ? `--suite ${suites.join(',')}` : '',
      flags.grep ? `--grep "${flags.grep}"` : '',
    ]
      .filter(Boolean)
      .join(' ');
    throw new ConfigError(`the selection (${by}) matches no check; see: svc-certify list`);
  }
  return selected;
}

export function listCommand(flags: ListFlags, out: (line: string) => void): number {
  if (flags.json && flags.bySpec)
    throw new ConfigError('--json and --by-spec: choose one (--json lists each check with its sections)');
  const entries = selectEntries(flags);
  if (flags.json) {
    out(JSON.stringify({ checks: entries }, null, 2));
    return 0;
  }
  if (flags.bySpec) {
    for (const line of bySpecLines(entries, loadSpec().sections)) out(line);
    return 0;
  }
  let group: string | undefined;
  for (const e of entries) {
    const heading = e.command === 'run' || e.command === e.suite ? e.suite : `${e.command}: ${e.suite}`;
    if (heading !== group) {
      if (group !== undefined) out('');
      group = heading;
      out(heading);
    }
    out(`  ${e.id}${e.advisory ? '  (advisory: warns only)' : ''}`);
    out(`      ${e.title}`);
    out(`      spec: ${e.spec.join('; ')}${e.needs.length ? `   needs: ${e.needs.join(', ')}` : ''}`);
    out(`      evidence: ${evidenceLine(e)}`);
    if (e.warns.length > 0) out(`      may warn: ${e.warns.join('; ')}`);
  }
  out('');
  const byCommand = CERTIFYING_COMMANDS.map((c) => [c, entries.filter((e) => e.command === c).length] as const).filter(
    ([, n]) => n > 0,
  );
  out(
    `${entries.length} check${entries.length === 1 ? '' : 's'} (${byCommand.map(([c, n]) => `${c} ${n}`).join(', ')})`,
  );
  return 0;
}

/** How a check gets its evidence, with what unlocks an input check and when a conditional one does not apply. */
function evidenceLine(e: CatalogueEntry): string {
  if (e.evidence === 'conditional')
    return `conditional (not applicable when ${e.notApplicableWhen ?? 'its situation never arose'})`;
  if (e.evidence === 'input') return `input (unlocked by ${e.unlock ?? 'an operator input'})`;
  return 'provoked';
}

/** Every section in spec order with the checks citing it; a section without one gives its reason. */
function bySpecLines(entries: readonly CatalogueEntry[], sections: readonly string[]): string[] {
  const rows = specCoverage(sections, entries, uncoveredReason);
  const label = (e: CatalogueEntry): string => (e.command === 'run' ? e.id : `${e.id} (${e.command})`);
  const lines: string[] = [];
  for (const row of rows) {
    if (!row.inSpec) {
      lines.push(`${row.section}  (cited, but no such section in the spec: ${row.checks.map(label).join(', ')})`);
      continue;
    }
    lines.push(row.section);
    if (row.checks.length === 0) lines.push(`    (no check: ${row.reason})`);
    else for (const e of row.checks) lines.push(`    ${label(e)}`);
  }
  const { covered, sections: total } = coveredCount(rows);
  lines.push('');
  lines.push(`${covered} of ${total} sections cited by at least one check`);
  return lines;
}
