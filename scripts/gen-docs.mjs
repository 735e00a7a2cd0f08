// Writes the reference pages of docs/reference/ from the built code (npm run docs:gen builds first):
// options from the option tables, checks from the check catalogue, reports from results.schema.json.
// src/cli/reference-pages.test.ts fails when a committed page differs from what this writes.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { REFERENCE_PAGES } = await import(join(root, 'dist', 'src', 'cli', 'reference-pages.js'));

for (const { path, render } of REFERENCE_PAGES) {
  const file = join(root, path);
  const text = render();
  let before = '';
  try {
    before = readFileSync(file, 'utf8');
  } catch {
    // a new page
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  console.log(`${path}: ${before === text ? 'unchanged' : 'written'} (${text.split('\n').length} lines)`);
}
