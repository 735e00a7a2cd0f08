import { describe, expect, it } from 'vitest';
import { checkCatalogue } from './check-catalogue.js';
import { warnsTableMarkdown } from './warns-table.js';

describe('the "what may warn" table', () => {
  it('has one row per declared warning case of every command, none for a check that cannot warn', () => {
    const catalogue = checkCatalogue();
    const rows = warnsTableMarkdown(catalogue).split('\n').slice(2);
    expect(rows.length).toBe(catalogue.reduce((n, e) => n + e.warns.length, 0));
    expect(rows.length).toBeGreaterThan(0);
    for (const command of ['run', 'partner', 'receiver'])
      expect(
        rows.some((r) => r.startsWith(`| ${command} |`)),
        command,
      ).toBe(true);
    const silent = catalogue.find((e) => e.warns.length === 0)!;
    expect(rows.some((r) => r.includes(`\`${silent.id}\``))).toBe(false);
  });

  it('escapes a | inside a warning case so the row keeps its columns', () => {
    const [row] = warnsTableMarkdown([
      {
        command: 'run',
        suite: 'a',
        id: 'a.b',
        title: 't',
        spec: [],
        needs: [],
        evidence: 'provoked',
        warns: ['x | y'],
      },
    ])
      .split('\n')
      .slice(2);
    expect(row).toBe('| run | `a.b` | x \\| y |');
  });
});
