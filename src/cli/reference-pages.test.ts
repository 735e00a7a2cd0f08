import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../package-root.js';
import type { CatalogueEntry } from './check-catalogue.js';
import { checksReferenceMarkdown } from './reference-checks.js';
import { REFERENCE_PAGES } from './reference-pages.js';

describe('the generated reference pages of docs/reference/', () => {
  it.each(REFERENCE_PAGES)('$path is what the code generates (stale: run `npm run docs:gen`)', ({ path, render }) => {
    const committed = readFileSync(join(packageRoot(), path), 'utf8');
    expect(committed, `${path} is stale: run \`npm run docs:gen\` and commit it`).toBe(render());
  });
});

describe('the checks reference', () => {
  const plain: CatalogueEntry = {
    command: 'run',
    suite: 'jobs',
    id: 'jobs.a',
    title: 'A',
    spec: ['Errors'],
    needs: ['org'],
  };

  it('shows how evidence arises and what may warn once catalogue entries declare them', () => {
    const declared = {
      ...plain,
      id: 'jobs.b',
      evidence: 'conditional',
      warns: [{ when: 'only the first field is named', reading: 'x' }],
    };
    const page = checksReferenceMarkdown([plain, declared]);
    expect(page).toContain('| id | asserts | spec sections | needs | evidence | may warn |');
    expect(page).toContain(
      '| `jobs.b` | A | Errors | `org` | conditional | when: only the first field is named, reading: x |',
    );
    expect(page).toContain('| `jobs.a` | A | Errors | `org` | — | — |');
  });

  it('leaves the columns out while no entry declares them', () => {
    expect(checksReferenceMarkdown([plain])).toContain('| id | asserts | spec sections | needs |\n');
  });
});
