// docs/reference/checks.md: every check and rule of the four certifying commands with the spec
// sections it enforces and what it needs, generated from the catalogue `svc-certify list` reads
// (check-catalogue.ts), then the injection points of `partner`. Where catalogue entries declare how
// their evidence arises (`evidence`) and which warnings they may give (`warns`), the page shows them
// in columns of their own; a test keeps the page equal to this.

import { INJECTION_POINTS } from '../partner/injection-points.js';
import { CERTIFYING_COMMANDS, checkCatalogue, type CatalogueEntry, type CertifyingCommand } from './check-catalogue.js';
import { cell, code, generatedNotice, table } from './reference-markdown.js';

const ABOUT: Record<CertifyingCommand, string> = {
  run: 'checks of a deployment of the API (`svc-certify run`), by suite',
  partner:
    "rules judged from a partner client's traffic (`svc-certify partner`); advisory rules are client guidance and only warn",
  receiver: "checks of a partner's webhook endpoint (`svc-certify receiver`)",
  scan: 'checks of the files a browser receives (`svc-certify scan`)',
};

/** A declared value of any shape (a word, a list, a record) as one line of text. */
function declared(value: unknown, depth = 0): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (depth > 3) return '…';
  if (Array.isArray(value))
    return value
      .map((v) => declared(v, depth + 1))
      .filter((v) => v !== '')
      .join('; ');
  if (typeof value === 'object')
    return Object.entries(value)
      .map(([k, v]) => [k, declared(v, depth + 1)] as const)
      .filter(([, v]) => v !== '')
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ');
  return '';
}

// Read without widening the entry's type: the fields exist once the catalogue declares them.
const evidenceOf = (e: CatalogueEntry): string => declared('evidence' in e ? e.evidence : undefined);
const warnsOf = (e: CatalogueEntry): string => declared('warns' in e ? e.warns : undefined);

function needsOf(e: CatalogueEntry): string {
  if (e.needs.length > 0) return e.needs.map(code).join(', ');
  return e.hint ?? '';
}

function commandSection(command: CertifyingCommand, entries: readonly CatalogueEntry[]): string {
  const withEvidence = entries.some((e) => evidenceOf(e) !== '');
  const withWarns = entries.some((e) => warnsOf(e) !== '');
  const head = [
    'id',
    'asserts',
    'spec sections',
    command === 'partner' ? 'how it is exercised' : 'needs',
    ...(withEvidence ? ['evidence'] : []),
    ...(withWarns ? ['may warn'] : []),
  ];
  const suites = [...new Set(entries.map((e) => e.suite))];
  const parts = [`## ${code(command)}`, '', `${entries.length} ${ABOUT[command]}.`, ''];
  for (const suite of suites) {
    const rows = entries
      .filter((e) => e.suite === suite)
      .map((e) => [
        code(e.id),
        cell(e.advisory ? `${e.title} (advisory)` : e.title),
        cell(e.spec.join('; ')),
        cell(needsOf(e)),
        ...(withEvidence ? [cell(evidenceOf(e))] : []),
        ...(withWarns ? [cell(warnsOf(e))] : []),
      ]);
    if (suites.length > 1) parts.push(`### ${code(suite)}`, '');
    parts.push(table(head, rows), '');
  }
  return parts.join('\n');
}

export function checksReferenceMarkdown(catalogue: readonly CatalogueEntry[] = checkCatalogue()): string {
  const injections = table(
    ['id', 'where it fires and what the partner sees'],
    INJECTION_POINTS.map((p) => [code(p.id), cell(p.summary)]),
  );
  return [
    '# Checks reference',
    '',
    generatedNotice('the check catalogue (`src/cli/check-catalogue.ts`) and `src/partner/injection-points.ts`'),
    '',
    `Every check and rule of the certifying commands: ${catalogue.length} in all. \`svc-certify list\` prints the`,
    'same catalogue (`--json` for tools, `--by-spec` for the traceability matrix). What the statuses, skip kinds',
    'and verdicts mean: [the design](../design.md#verdict).',
    '',
    `Commands: ${CERTIFYING_COMMANDS.map((c) => `[${c}](#${c})`).join(', ')}; [injections of partner](#injections-of-partner).`,
    '',
    ...CERTIFYING_COMMANDS.map((c) =>
      commandSection(
        c,
        catalogue.filter((e) => e.command === c),
      ),
    ),
    '## Injections of `partner`',
    '',
    'Each fires once per session; `--no-inject` turns them all off, `--skip-injection ID` one of them.',
    '',
    injections,
    '',
  ].join('\n');
}
