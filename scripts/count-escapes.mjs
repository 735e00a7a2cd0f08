// Counts the type escapes the code keeps under watch: non-null assertions (`x!`) and `as` casts other than
// `as const`, by folder, production files and their unit tests apart. Read from the syntax tree
// (TypeScript's parser), so a `!=` or the word "as" in a string or comment never counts.
// `npm run count:escapes` prints the table; `--json` prints it as JSON.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const ROOT = new URL('..', import.meta.url).pathname;
const FOLDERS = ['src', 'suites', 'test', 'bench'];

function* tsFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* tsFiles(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield path;
  }
}

function escapesOf(path) {
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const counts = { nonNull: 0, as: 0 };
  const visit = (node) => {
    if (ts.isNonNullExpression(node)) counts.nonNull++;
    const isConst =
      ts.isAsExpression(node) && ts.isTypeReferenceNode(node.type) && node.type.typeName.getText(source) === 'const';
    if ((ts.isAsExpression(node) && !isConst) || ts.isTypeAssertionExpression(node)) counts.as++;
    ts.forEachChild(node, visit);
  };
  visit(source);
  return counts;
}

/** `--files`: the production files of src/ with their counts, most first (where to look next). */
if (process.argv.includes('--files')) {
  const files = [...tsFiles(join(ROOT, 'src'))]
    .filter((p) => !p.endsWith('.test.ts'))
    .map((p) => ({ path: relative(ROOT, p), ...escapesOf(p) }));
  for (const f of files.filter((f) => f.nonNull + f.as > 0).sort((a, b) => b.nonNull + b.as - a.nonNull - a.as))
    console.log(`${String(f.nonNull).padStart(4)} ${String(f.as).padStart(4)}  ${f.path}`);
  process.exit(0);
}

const rows = [];
for (const folder of FOLDERS) {
  const totals = { code: { nonNull: 0, as: 0 }, tests: { nonNull: 0, as: 0 } };
  for (const path of tsFiles(join(ROOT, folder))) {
    const kind = folder === 'test' || path.endsWith('.test.ts') ? 'tests' : 'code';
    const c = escapesOf(path);
    totals[kind].nonNull += c.nonNull;
    totals[kind].as += c.as;
  }
  for (const kind of ['code', 'tests']) {
    if (folder === 'test' && kind === 'code') continue;
    rows.push({ folder: relative(ROOT, join(ROOT, folder)), kind, ...totals[kind] });
  }
}

if (process.argv.includes('--json')) {
  console.log(JSON.stringify(rows));
} else {
  console.log('folder  files   non-null !  as (not as const)');
  for (const r of rows)
    console.log(
      `${r.folder.padEnd(7)} ${r.kind.padEnd(7)} ${String(r.nonNull).padStart(10)}  ${String(r.as).padStart(17)}`,
    );
}
