import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../package-root.js';
import { REFERENCE_PAGES } from './reference-pages.js';

describe('the generated reference pages of docs/reference/', () => {
  it.each(REFERENCE_PAGES)('$path is what the code generates (stale: run `npm run docs:gen`)', ({ path, render }) => {
    const committed = readFileSync(join(packageRoot(), path), 'utf8');
    expect(committed, `${path} is stale: run \`npm run docs:gen\` and commit it`).toBe(render());
  });
});
