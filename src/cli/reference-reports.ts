// docs/reference/reports.md: the report files and every field of results.json, generated from the
// table of report files (src/report/file-reports.ts) and schemas/results.schema.json, the one
// description of results.json that the tests validate real results against. A test keeps the page
// equal to this.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package-root.js';
import { FILE_REPORTS } from '../report/file-reports.js';
import { cell, code, generatedNotice, table } from './reference-markdown.js';

/** The part of JSON Schema results.schema.json uses. */
interface Schema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  description?: string;
  required?: string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: Schema | boolean;
  oneOf?: Schema[];
  allOf?: Schema[];
  $defs?: Record<string, Schema>;
}

interface Row {
  path: string;
  type: string;
  required: boolean;
  meaning: string;
}

function typeOf(s: Schema): string {
  if (s.const !== undefined) return code(JSON.stringify(s.const));
  if (s.enum) return s.enum.map((v) => code(JSON.stringify(v))).join(', ');
  if (s.oneOf) return 'one of the forms below';
  if (s.type === 'array') {
    const items = s.items && !s.items.properties && !s.items.$ref && !s.items.oneOf ? typeOf(s.items) : '';
    return items ? `array of ${items}` : 'array';
  }
  if (Array.isArray(s.type)) return s.type.join(' or ');
  return s.type ?? (s.allOf ? 'object' : '');
}

/** One form of a oneOf, named by its definition: `checks[].exchanges[] (exchangeRef)`. */
const formPath = (path: string, form: Schema): string => `${path} (${form.$ref?.replace('#/$defs/', '') ?? 'form'})`;

/** Walks the schema into one row per field; a definition used again is named, not expanded twice. */
function rowsOf(root: Schema): Row[] {
  const defs = root.$defs ?? {};
  const shownAt = new Map<string, string>();
  // A definition a top-level field names (summary) is listed there, not at a deeper first use.
  for (const [name, field] of Object.entries(root.properties ?? {})) {
    const def = field.$ref?.replace('#/$defs/', '');
    if (def !== undefined) shownAt.set(def, name);
  }
  const rows: Row[] = [];
  const fields = (s: Schema, path: string): void => {
    for (const [name, field] of Object.entries(s.properties ?? {}))
      visit(field, path === '' ? name : `${path}.${name}`, (s.required ?? []).includes(name), '');
  };
  /** The fields of a definition, listed at its first use; later uses name that first path. */
  const expand = (name: string, path: string): string | undefined => {
    const def = defs[name];
    const first = shownAt.get(name);
    if (!def || (first !== undefined && first !== path)) return first;
    shownAt.set(name, path);
    fields(def, path);
    if (def.items) visit(def.items, `${path}[]`, false, '');
    def.oneOf?.forEach((form) => visit(form, formPath(path, form), false, ''));
    return undefined;
  };
  const visit = (s: Schema, path: string, required: boolean, meaning: string): void => {
    const ref = s.$ref?.replace('#/$defs/', '');
    const def = ref === undefined ? s : (defs[ref] ?? {});
    const row: Row = { path, type: typeOf(def), required, meaning: meaning || s.description || def.description || '' };
    rows.push(row);
    if (ref !== undefined) {
      const first = expand(ref, path);
      if (first !== undefined && (def.properties || def.oneOf)) row.type = `as ${code(first)}`;
      return;
    }
    for (const part of s.allOf ?? []) {
      const name = part.$ref?.replace('#/$defs/', '');
      const first = name === undefined ? undefined : expand(name, path);
      if (first !== undefined) row.meaning = `${row.meaning} The fields of ${code(first)} too.`.trim();
    }
    fields(s, path);
    if (s.items && (s.items.properties || s.items.$ref || s.items.oneOf)) visit(s.items, `${path}[]`, false, '');
    s.oneOf?.forEach((form) => visit(form, formPath(path, form), false, ''));
    if (typeof s.additionalProperties === 'object')
      rows.push({ path: `${path}.*`, type: typeOf(s.additionalProperties), required: false, meaning: 'any name' });
  };
  fields(root, '');
  return rows;
}

export function reportsReferenceMarkdown(): string {
  const schema: Schema = JSON.parse(readFileSync(join(packageRoot(), 'schemas', 'results.schema.json'), 'utf8'));
  const files = table(
    ['file', 'reporter', 'for'],
    FILE_REPORTS.map((r) => [code(r.file), code(r.name), cell(r.readBy)]),
  );
  const fields = table(
    ['field', 'type', 'required', 'meaning'],
    rowsOf(schema).map((r) => [code(r.path), cell(r.type), r.required ? 'yes' : '', cell(r.meaning)]),
  );
  return [
    '# Reports reference',
    '',
    generatedNotice('`src/report/file-reports.ts` and `schemas/results.schema.json`'),
    '',
    'Every certifying command (`run`, `partner`, `receiver`, `scan`, `report`) writes these files to',
    '`--report-dir` (default `reports/`), whatever the verdict; `--reporter` chooses them (`console` is not a',
    'file) and `NAME:-` writes one to stdout instead (`--reporter json:- | jq .verdict`).',
    '',
    files,
    '',
    '## results.json',
    '',
    `${schema.description ?? ''} Its JSON Schema is \`schemas/results.schema.json\` (in the installed package too).`,
    'A field path reads `checks[].status`: the `status` of every item of `checks`; a definition used again',
    'says `as` the path where its fields are listed.',
    '',
    fields,
    '',
  ].join('\n');
}
