// Counts the functions longer than a bound (80 lines by default) in the production code of src/ and
// suites/ (unit tests, .d.ts and test-only helpers left out), nested functions counted on their own:
// a long closure inside a factory is as hard to read as a long function. Read from the syntax tree.
// `npm run count:functions [-- 80]` prints each with its length, longest first, then the totals.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const ROOT = new URL('..', import.meta.url).pathname;
const bound = Number(process.argv[2] ?? 80);

function* productionFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* productionFiles(path);
    else if (/\.ts$/.test(entry.name) && !/\.test\.ts$|\.d\.ts$|testing\.ts$/.test(entry.name)) yield path;
  }
}

const isFunction = (node) =>
  (ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node)) &&
  node.body !== undefined;

function nameOf(node) {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent))) return parent.name.getText();
  return '(anonymous)';
}

const long = [];
for (const folder of ['src', 'suites']) {
  for (const file of productionFiles(join(ROOT, folder))) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node) => {
      if (isFunction(node)) {
        const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
        const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        const lines = last - first + 1;
        if (lines > bound) long.push({ lines, where: `${relative(ROOT, file)}:${first + 1}`, name: nameOf(node) });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
}
long.sort((a, b) => b.lines - a.lines || a.where.localeCompare(b.where));
for (const f of long) console.log(`${f.lines}\t${f.where}\t${f.name}`);
console.log(`functions over ${bound} lines: ${long.length}; over 150: ${long.filter((f) => f.lines > 150).length}`);
