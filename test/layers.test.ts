// The import direction of ARCHITECTURE.md, enforced: a layer may import only the layers listed for it
// (and itself), so a cycle between layers or a certifier module reaching into the sandbox fails here.

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

/** Layer → the layers it may import. `package-root` is a leaf every layer may use. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  cli: ['config', 'embedded', 'partner', 'receiver-cert', 'report', 'runner', 'sandbox', 'scan', 'schema', 'suites', 'webhook', 'http', 'json'],
  /** The embedded target: with cli, the only certifier layer that reaches the sandbox (its public entry). */
  embedded: ['sandbox', 'webhook', 'config', 'json'],
  suites: ['runner', 'http', 'schema', 'webhook', 'json'],
  partner: ['runner', 'report', 'http', 'config', 'json'],
  'receiver-cert': ['runner', 'webhook', 'http', 'config', 'json'],
  scan: ['runner', 'json'],
  report: ['runner', 'json'],
  runner: ['http', 'schema', 'webhook', 'config', 'json'],
  http: ['config', 'json'],
  schema: ['json'],
  webhook: ['json'],
  config: ['json'],
  json: [],
  sandbox: [],
};

function layerOf(file: string): string {
  const rel = relative(ROOT, file).split(/[\\/]/);
  if (rel[0] === 'suites') return 'suites';
  return rel[1]!.replace(/\.(ts|js)$/, '');
}

function sources(dir: string, withTests = false): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === '__snapshots__' || e.name === 'vendor' ? [] : sources(path, withTests);
    return e.name.endsWith('.ts') && (withTests || !e.name.endsWith('.test.ts')) ? [path] : [];
  });
}

const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

function crossings(): string[] {
  const bad: string[] = [];
  for (const file of [...sources(join(ROOT, 'src')), ...sources(join(ROOT, 'suites'))]) {
    const from = layerOf(file);
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const to = layerOf(normalize(join(dirname(file), m[1]!)));
      if (to === from || to === 'package-root') continue;
      const allowed = MAY_IMPORT[from];
      if (!allowed) bad.push(`${relative(ROOT, file)}: layer "${from}" is not in the table`);
      else if (!allowed.includes(to)) bad.push(`${relative(ROOT, file)} imports ${m[1]} (${from} → ${to})`);
    }
  }
  return bad;
}

describe('layers', () => {
  it('every import follows the direction of ARCHITECTURE.md', () => {
    expect(crossings()).toEqual([]);
  });

  it('tests and benches reach the sandbox only through its public entry', () => {
    const inner: string[] = [];
    for (const file of [...sources(join(ROOT, 'test'), true), ...sources(join(ROOT, 'bench'), true)]) {
      for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const target = relative(ROOT, normalize(join(dirname(file), m[1]!)));
        if (target.startsWith(join('src', 'sandbox')) && target !== join('src', 'sandbox', 'index.js')) inner.push(`${relative(ROOT, file)} imports ${m[1]}`);
      }
    }
    expect(inner).toEqual([]);
  });

  it('the table itself has no cycle between layers', () => {
    const visiting = new Set<string>();
    const done = new Set<string>();
    const cycle = (layer: string): boolean => {
      if (done.has(layer)) return false;
      if (visiting.has(layer)) return true;
      visiting.add(layer);
      const found = (MAY_IMPORT[layer] ?? []).some(cycle);
      visiting.delete(layer);
      done.add(layer);
      return found;
    };
    expect(Object.keys(MAY_IMPORT).filter(cycle)).toEqual([]);
  });
});
