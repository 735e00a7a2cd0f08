// The import rules of ARCHITECTURE.md ("Layers and import direction"), enforced over every .ts file of
// src/ (unit tests included), suites/, bench/ and test/. The checker is a pure function of the files'
// text, so a test feeds it fake violations and sees each one reported: it cannot pass vacuously.

import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

/** Layer → the layers it may import (the arrows of the table). `package-root`, `narrow` and `secret-shapes` are leaves every layer may use. */
const LEAVES = ['package-root', 'narrow', 'secret-shapes'];
const MAY_IMPORT: Record<string, readonly string[]> = {
  cli: [
    'api',
    'api-setup',
    'config',
    'embedded',
    'openapi',
    'partner',
    'receiver-cert',
    'report',
    'runner',
    'sandbox',
    'scan',
    'schema',
    'spec',
    'suites',
    'webhook',
    'http',
    'json',
  ],
  /** The embedded target: with cli, the only certifier layer that reaches the sandbox (its public entry). */
  embedded: ['sandbox', 'webhook', 'config', 'json'],
  suites: ['api', 'api-setup', 'runner', 'spec', 'http', 'schema', 'webhook', 'json'],
  partner: ['api', 'runner', 'report', 'spec', 'http', 'config', 'json'],
  'receiver-cert': ['runner', 'spec', 'webhook', 'http', 'config', 'json'],
  scan: ['runner', 'spec', 'json'],
  /** Reporters; the spec layer for its sections, which the coverage map of report.html lists in order. */
  report: ['runner', 'spec', 'config', 'json'],
  /** The OpenAPI description: built from the schemas of schemas/ (through the schema layer's names and folder). */
  openapi: ['api', 'schema', 'json', 'config'],
  /**
   * The API's setup for `run` (organizations, recruiters, jobs, the shared real runs, the webhook trio,
   * the environment's evidence) and certify(), which puts it around the engine. The engine never
   * imports it: what a check may await reaches the runner only as the type parameter of its check model.
   */
  'api-setup': ['api', 'runner', 'spec', 'http', 'schema', 'webhook', 'config', 'json'],
  /**
   * The engine: check model, registry, schedule, outcome, verdict, baseline, budget. It knows no API:
   * not the spec's sections, the schemas, webhooks or the endpoint table (what a check needs and awaits
   * are type parameters). HTTP is its transport: recorded exchanges are the evidence of every command.
   */
  runner: ['http', 'config', 'json'],
  /**
   * The endpoint table of the certifier (names, methods, path patterns, schemas, sections): the one
   * place that matches and builds API paths. The sandbox never reads it (it routes by its own table).
   */
  api: ['spec', 'schema'],
  /** The spec as the code reads it: its copy, its section names (one table), its notice codes. */
  spec: [],
  http: ['config', 'json'],
  schema: ['json'],
  webhook: ['json'],
  config: ['json'],
  json: [],
  sandbox: [],
};

/** Public entries (paths without extension): the only file of the layer that other layers, tests and benches import. */
const SANDBOX_ENTRY = 'src/sandbox/index';
const EMBEDDED_ENTRY = 'src/embedded/embedded-target';
/** The only places outside the sandbox that may import its entry. */
const SANDBOX_USERS = ['src/cli/', 'src/embedded/', 'test/', 'bench/'];
/**
 * A suite is a file `suites/<suite>.ts` or a folder `suites/<suite>/` of files by topic. What a file of
 * a suite may import of suites/: the files of its own folder and the shared helpers of suites/support/.
 * The registry (suites/index.ts) and suites' tests import any suite.
 */
const SUITE_HELPERS = 'support';
const SUITE_REGISTRY = 'suites/index';
/** `suites/webhooks/retries.ts` → `webhooks`, `suites/jobs.ts` → `jobs`, `suites/support/show.ts` → `support`. */
const suiteOf = (path: string): string => path.split('/')[1]!.replace(/\.(ts|js)$/, '');

export interface SourceFile {
  /** Path relative to the repository root, with `/`. */
  file: string;
  text: string;
}

const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

/** `src/x/…` → `x` (`src/package-root.ts` → `package-root`); `suites/…`, `test/…`, `bench/…` → that folder. */
function layerOf(path: string): string {
  const parts = path.split('/');
  if (parts[0] !== 'src') return parts[0]!;
  return parts[1]!.replace(/\.(ts|js)$/, '');
}

const isTest = (file: string): boolean => file.endsWith('.test.ts');
const noExt = (path: string): string => path.replace(/\.(ts|js|mts|mjs)$/, '');
/** A test that spawns the CLI: `test/cli-*.test.ts` using the spawner of test/cli-support.ts. */
const spawnsCli = (f: SourceFile): boolean =>
  /^test\/cli-[^/]+\.test\.ts$/.test(f.file) && /['"]\.\/cli-support\.js['"]/.test(f.text);

/** Every broken rule, one message per import and rule: importing file, imported file, rule. */
export function violations(files: readonly SourceFile[]): string[] {
  const bad: string[] = [];
  for (const f of files) {
    const from = layerOf(f.file);
    for (const m of f.text.matchAll(IMPORT)) {
      const target = posix.normalize(posix.join(posix.dirname(f.file), m[1]!));
      const to = layerOf(target);
      const t = noExt(target);
      const report = (rule: string): void => void bad.push(`${f.file} imports ${target}: ${rule}`);

      // The layer table, for src/ and suites/ (their tests too, which may also use the helpers of test/).
      if (
        (f.file.startsWith('src/') || f.file.startsWith('suites/')) &&
        to !== from &&
        !LEAVES.includes(to) &&
        !(isTest(f.file) && to === 'test')
      ) {
        const allowed = MAY_IMPORT[from];
        if (!allowed) report(`layer "${from}" is not in the layer table`);
        else if (!allowed.includes(to)) report(`layer "${from}" may not import layer "${to}" (layer table)`);
      }
      // The sandbox: only its public entry, only from cli, embedded, tests and benches.
      if (to === 'sandbox' && from !== 'sandbox') {
        if (t !== SANDBOX_ENTRY) report(`the sandbox is reached only through its public entry ${SANDBOX_ENTRY}.ts`);
        if (!SANDBOX_USERS.some((p) => f.file.startsWith(p)))
          report(`only src/cli/, src/embedded/, test/ and bench/ reach the sandbox`);
      }
      // The embedded target: only its public entry.
      if (to === 'embedded' && from !== 'embedded' && t !== EMBEDDED_ENTRY)
        report(`the embedded target is reached only through its public entry ${EMBEDDED_ENTRY}.ts`);
      // Nothing imports src/cli/, but tests that spawn the CLI.
      if (to === 'cli' && from !== 'cli' && !spawnsCli(f))
        report('nothing imports src/cli/ (but test/cli-*.test.ts files that spawn the CLI)');
      // Suites never import each other: a suite's files import their own folder and suites/support/.
      if (
        from === 'suites' &&
        to === 'suites' &&
        suiteOf(target) !== suiteOf(f.file) &&
        suiteOf(target) !== SUITE_HELPERS &&
        noExt(f.file) !== SUITE_REGISTRY &&
        !isTest(f.file)
      ) {
        report(`suites never import each other (only files of their own folder and suites/${SUITE_HELPERS}/)`);
      }
      // Reporters never import suites.
      if (from === 'report' && to === 'suites') report('reporters (src/report/) never import suites');
    }
  }
  return bad;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === '__snapshots__' || e.name === 'vendor' ? [] : sources(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

function repository(): SourceFile[] {
  return ['src', 'suites', 'bench', 'test'].flatMap((dir) =>
    sources(join(ROOT, dir)).map((path) => ({
      file: relative(ROOT, path).split(sep).join('/'),
      text: readFileSync(path, 'utf8'),
    })),
  );
}

/** Import lines for fake files (built at run time, so this file's own source holds no such line). */
const imports = (...specs: string[]): string => specs.map((spec) => `import { x } from '${spec}';`).join('\n');

describe('layers', () => {
  const files = repository();
  const found = violations(files);

  it('reads the whole tree', () => {
    // src/, suites/, bench/ and test/ with their tests: a walk that found nothing would pass everything.
    for (const f of [
      'src/http/pacer.ts',
      'src/cli/main.ts',
      'suites/index.ts',
      'bench/cli-bench.ts',
      'test/layers.test.ts',
      'src/http/pacer.test.ts',
    ]) {
      expect(files.map((x) => x.file)).toContain(f);
    }
    expect(files.reduce((n, f) => n + [...f.text.matchAll(IMPORT)].length, 0)).toBeGreaterThan(500);
  });

  it('every import follows the rules of ARCHITECTURE.md', () => {
    expect(found).toEqual([]);
  });

  it('reports a fake violation of every rule, naming the importing file, the imported file and the rule', () => {
    const fake = (file: string, spec: string): SourceFile => ({ file, text: imports(spec) });
    const cases: Array<[SourceFile, string]> = [
      [
        fake('src/runner/x.ts', '../report/index.js'),
        'src/runner/x.ts imports src/report/index.js: layer "runner" may not import layer "report" (layer table)',
      ],
      [
        fake('src/runner/x.ts', '../api-setup/shared-setup.js'),
        'src/runner/x.ts imports src/api-setup/shared-setup.js: layer "runner" may not import layer "api-setup" (layer table)',
      ],
      ...(['spec/sections', 'schema/schema-names', 'webhook/receiver', 'api/endpoints'] as const).map(
        (api): [SourceFile, string] => [
          fake('src/runner/x.ts', `../${api}.js`),
          `src/runner/x.ts imports src/${api}.js: layer "runner" may not import layer "${api.split('/')[0]}" (layer table)`,
        ],
      ),
      [
        fake('src/spec/x.ts', '../runner/check.js'),
        'src/spec/x.ts imports src/runner/check.js: layer "spec" may not import layer "runner" (layer table)',
      ],
      [
        fake('src/sandbox/routing.ts', '../api/endpoints.js'),
        'src/sandbox/routing.ts imports src/api/endpoints.js: layer "sandbox" may not import layer "api"',
      ],
      [
        fake('src/sandbox/app.ts', '../http/client.js'),
        'src/sandbox/app.ts imports src/http/client.js: layer "sandbox" may not import layer "http"',
      ],
      [
        fake('src/cli/serve-command.ts', '../sandbox/faults/index.js'),
        'src/cli/serve-command.ts imports src/sandbox/faults/index.js: the sandbox is reached only through its public entry src/sandbox/index.ts',
      ],
      [
        fake('test/x.test.ts', '../src/sandbox/app.js'),
        'test/x.test.ts imports src/sandbox/app.js: the sandbox is reached only through its public entry',
      ],
      [
        fake('src/report/x.test.ts', '../sandbox/index.js'),
        'src/report/x.test.ts imports src/sandbox/index.js: only src/cli/, src/embedded/, test/ and bench/ reach the sandbox',
      ],
      [
        fake('bench/x.ts', '../src/embedded/other.js'),
        'bench/x.ts imports src/embedded/other.js: the embedded target is reached only through its public entry',
      ],
      [
        fake('test/x.test.ts', '../src/cli/main.js'),
        'test/x.test.ts imports src/cli/main.js: nothing imports src/cli/',
      ],
      [
        fake('bench/x.ts', '../src/cli/run-command.js'),
        'bench/x.ts imports src/cli/run-command.js: nothing imports src/cli/',
      ],
      [
        fake('src/partner/x.test.ts', '../cli/help-text.js'),
        'src/partner/x.test.ts imports src/cli/help-text.js: nothing imports src/cli/',
      ],
      [fake('suites/jobs.ts', './users.js'), 'suites/jobs.ts imports suites/users.js: suites never import each other'],
      [
        fake('suites/webhooks/retries.ts', '../runs-read/real-runs.js'),
        'suites/webhooks/retries.ts imports suites/runs-read/real-runs.js: suites never import each other',
      ],
      [
        fake('suites/webhooks/retries.ts', '../jobs.js'),
        'suites/webhooks/retries.ts imports suites/jobs.js: suites never import each other',
      ],
      [
        fake('suites/jobs.ts', './webhooks/common.js'),
        'suites/jobs.ts imports suites/webhooks/common.js: suites never import each other',
      ],
      [
        fake('suites/support/messages.ts', '../limits.js'),
        'suites/support/messages.ts imports suites/limits.js: suites never import each other',
      ],
      [
        fake('suites/support/messages.ts', '../webhooks/index.js'),
        'suites/support/messages.ts imports suites/webhooks/index.js: suites never import each other',
      ],
      [
        fake('src/report/x.ts', '../../suites/support/messages.js'),
        'src/report/x.ts imports suites/support/messages.js: reporters (src/report/) never import suites',
      ],
      [
        fake('src/report/x.test.ts', '../../suites/index.js'),
        'src/report/x.test.ts imports suites/index.js: reporters (src/report/) never import suites',
      ],
      [
        fake('src/newlayer/x.ts', '../json/lossless.js'),
        'src/newlayer/x.ts imports src/json/lossless.js: layer "newlayer" is not in the layer table',
      ],
    ];
    for (const [file, message] of cases)
      expect(
        violations([file]).some((v) => v.startsWith(message)),
        `${file.file}: ${violations([file]).join(' | ')}`,
      ).toBe(true);
  });

  it('accepts what the rules allow', () => {
    const ok: SourceFile[] = [
      { file: 'src/cli/serve-command.ts', text: `const m = await import('${'../sandbox/index.js'}');` },
      { file: 'src/embedded/embedded-target.ts', text: imports('../sandbox/index.js') },
      {
        file: 'test/suite-x.test.ts',
        text: imports(
          '../src/sandbox/index.js',
          '../suites/jobs.js',
          '../suites/webhooks/index.js',
          '../src/embedded/embedded-target.js',
        ),
      },
      { file: 'test/cli-x.test.ts', text: imports('./cli-support.js', '../src/cli/partner-command.js') },
      { file: 'src/cli/x.test.ts', text: imports('./main.js') },
      { file: 'suites/jobs.ts', text: imports('./support/json-values.js', './support/messages.js') },
      {
        file: 'suites/webhooks/retries.ts',
        text: imports('./common.js', '../support/webhook-deliveries.js', '../../src/api-setup/check.js'),
      },
      { file: 'suites/support/runs.ts', text: imports('./messages.js', './json-values.js') },
      { file: 'suites/index.ts', text: imports('./jobs.js', './webhooks/index.js') },
      { file: 'suites/webhooks/index.test.ts', text: imports('../runs-read/index.js') },
      { file: 'src/sandbox/x.test.ts', text: imports('../../test/support/vendor-file.js') },
      { file: 'src/report/x.ts', text: imports('../package-root.js') },
    ];
    expect(violations(ok)).toEqual([]);
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
