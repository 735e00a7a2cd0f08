import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAULTS } from '../faults/index.js';

const SUITES = [
  'conventions',
  'auth',
  'activation',
  'users',
  'jobs',
  'runs-start',
  'runs-read',
  'fixtures',
  'reveal',
  'decisions',
  'sandbox',
  'production',
  'limits',
  'webhooks',
];
const ID = /^([a-z-]+)\.[a-z0-9]+(?:[-.][a-z0-9]+)*$/;

function sources(dir: string): string {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
}

describe('engine, run view and webhook fault catalogue', () => {
  /** The faults of the areas the engine, the run view, presentation and the webhook queue serve. */
  const all = FAULTS.filter((f) => f.area === 'runs-read' || f.area === 'webhooks');
  const here = new URL('.', import.meta.url).pathname;
  // A fault may break behaviour anywhere in the sandbox (events.ts queues the webhooks, for one).
  const code = ['..', '../engine', '../presentation', '../webhooks', '../routes']
    .map((d) => sources(join(here, d)))
    .join('\n');

  it('has at least 12 faults with unique, well-formed ids naming a known suite', () => {
    expect(all.length).toBeGreaterThanOrEqual(12);
    expect(new Set(all.map((f) => f.id)).size).toBe(all.length);
    for (const f of all) {
      for (const id of [f.id, f.caughtBy]) expect(SUITES, id).toContain(ID.exec(id)?.[1]);
      expect(f.summary.length).toBeGreaterThan(10);
    }
  });

  it('tests every fault at a point in the code, or acts at a named point', () => {
    for (const f of all) if (!f.acts) expect(code, f.id).toContain(`'${f.id}'`);
  });
});
