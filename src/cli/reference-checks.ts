// docs/reference/checks.md: every check and rule of the four certifying commands with the spec
// sections it enforces and what it needs, generated from the catalogue `svc-certify list` reads
// (check-catalogue.ts) — how each gets its evidence and the cases in which it may warn, as the checks
// declare them —, then the injection points of `partner`; a test keeps the page equal to this.

import { INJECTION_POINTS } from '../partner/injection-points.js';
import { CERTIFYING_COMMANDS, checkCatalogue, type CatalogueEntry, type CertifyingCommand } from './check-catalogue.js';
import { cell, code, generatedNotice, table } from './reference-markdown.js';

const ABOUT: Record<CertifyingCommand, string> = {
  run: 'checks of a deployment of the API (`svc-certify run`), by suite. Beyond the cases each check declares, one case holds for every check that judges an answer against a schema, stated here once: it may warn that a field the spec lists but never states always present is missing (the schema marks such a field `x-expected`; the warning names the reading)',
  partner:
    "rules judged from a partner client's traffic (`svc-certify partner`); advisory rules are client guidance and only warn",
  receiver: "checks of a partner's webhook endpoint (`svc-certify receiver`)",
  scan: 'checks of the files a browser receives (`svc-certify scan`)',
};

/** How the check gets its evidence, with what unlocks an input one and when a conditional one does not apply. */
function evidenceOf(e: CatalogueEntry): string {
  if (e.evidence === 'input' && e.unlock) return `input (unlocked by ${e.unlock})`;
  if (e.evidence === 'conditional' && e.notApplicableWhen)
    return `conditional (not applicable when ${e.notApplicableWhen})`;
  return e.evidence;
}

function needsOf(e: CatalogueEntry): string {
  if (e.needs.length > 0) return e.needs.map(code).join(', ');
  return e.hint ?? '';
}

function commandSection(command: CertifyingCommand, entries: readonly CatalogueEntry[]): string {
  const head = [
    'id',
    'asserts',
    'spec sections',
    command === 'partner' ? 'how it is exercised' : 'needs',
    'evidence',
    'may warn',
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
        cell(evidenceOf(e)),
        cell(e.warns.join('; ') || '—'),
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
