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
    evidence: 'provoked',
    warns: [],
  };

  it('shows how evidence arises and what may warn, as each entry declares them', () => {
    const conditional: CatalogueEntry = {
      ...plain,
      id: 'jobs.b',
      evidence: 'conditional',
      notApplicableWhen: 'no job was refused',
      warns: ['only the first field is named'],
    };
    const input: CatalogueEntry = { ...plain, id: 'jobs.c', evidence: 'input', unlock: '--expired-code' };
    const page = checksReferenceMarkdown([plain, conditional, input]);
    expect(page).toContain('| id | asserts | spec sections | needs | evidence | may warn |');
    expect(page).toContain('| `jobs.a` | A | Errors | `org` | provoked | — |');
    expect(page).toContain(
      '| `jobs.b` | A | Errors | `org` | conditional (not applicable when no job was refused) | only the first field is named |',
    );
    expect(page).toContain('| `jobs.c` | A | Errors | `org` | input (unlocked by --expired-code) | — |');
  });
});
