// The documentation's "what may warn" table, generated from the checks' own declarations (`warns`,
// runner/evidence.ts) through the catalogue of every certifying command: one row per warning case, with
// the command and check that may give it. A check declares what it may warn about beside its code (a
// test holds the two together), so the table cannot drift from what the checks do.

import { checkCatalogue, type CatalogueEntry } from './check-catalogue.js';

const cell = (text: string): string => text.replace(/\|/g, '\\|');

export function warnsTableMarkdown(catalogue: readonly CatalogueEntry[] = checkCatalogue()): string {
  const lines = ['| command | check | may warn when |', '| --- | --- | --- |'];
  for (const e of catalogue) for (const w of e.warns) lines.push(`| ${e.command} | \`${e.id}\` | ${cell(w)} |`);
  return lines.join('\n');
}
