import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { envTableMarkdown } from './env-table.js';

const README = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');

describe("README's table of environment variables", () => {
  it('is the one generated from the option tables (paste envTableMarkdown() between the markers when it changes)', () => {
    const m = /<!-- env-table:start -->\n([\s\S]*?)\n<!-- env-table:end -->/.exec(README);
    expect(m, 'README has <!-- env-table:start --> … <!-- env-table:end -->').not.toBeNull();
    expect(m?.[1]).toBe(envTableMarkdown());
  });
});
