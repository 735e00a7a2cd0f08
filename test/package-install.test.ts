// The package as a user or a CI job gets it: `npm pack`, installed from the tarball into an empty folder,
// run through `npx`. Anything the tool reads at run time (spec/, schemas/, compiled suites) that is
// missing from package.json `files` fails here, not in a user's pipeline.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPORT_FILES, ROOT } from './cli-support.js';
import { NPX, packAndInstall, sh } from './support/packed-app.js';

describe('the packed package, installed into an empty folder', () => {
  let files: string[];
  let app: string;
  let installStderr: string;
  let manifestBefore: string;

  beforeAll(async () => {
    manifestBefore = readFileSync(join(ROOT, 'package.json'), 'utf8');
    ({ app, files, installStderr } = await packAndInstall());
  }, 180_000);

  it('installs with no install-time script and no npm warning about one; the clone keeps its own package.json', () => {
    const installed = JSON.parse(readFileSync(join(app, 'node_modules', 'svc-certify', 'package.json'), 'utf8')) as {
      scripts?: Record<string, string>;
    };
    for (const name of ['preinstall', 'install', 'postinstall', 'prepare'])
      expect(installed.scripts?.[name], name).toBeUndefined();
    expect(installStderr).not.toMatch(/install-scripts|svc-certify@/);
    expect(readFileSync(join(ROOT, 'package.json'), 'utf8')).toBe(manifestBefore);
    expect(existsSync(join(ROOT, 'package.json.packing'))).toBe(false);
  });

  it('ships what the tool reads at run time and nothing of the tests or benches', () => {
    const paths = files;
    for (const needed of [
      'bin/svc-certify.js',
      'dist/src/cli/main.js',
      'spec/partner-api-v1.md',
      'schemas/results.schema.json',
      'package.json',
      'LICENSE',
    ]) {
      expect(paths, needed).toContain(needed);
    }
    expect(paths.some((p) => p.startsWith('dist/suites/'))).toBe(true);
    const unwanted = paths.filter((p) =>
      /(^|\/)test\/|\.test\.|__snapshots__|^bench\/|^dist\/bench\/|^src\/|\.ts$|(^|\/)testing\.js$/.test(p),
    );
    expect(unwanted).toEqual([]);
  });

  it('`npx svc-certify run` (the quick start, outside CI) certifies the embedded sandbox and writes every report', async () => {
    // CI empty: the README's quick start on a person's machine, where no target means the sandbox.
    const ran = await sh(NPX, ['--no-install', 'svc-certify', 'run'], app, { CI: '' });
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stderr).not.toMatch(/internal error|ENOENT/);
    expect(ran.stdout).toMatch(/^\d+ passed, 0 failed, \d+ skipped/m);
    for (const file of REPORT_FILES) expect(existsSync(join(app, 'reports', file)), file).toBe(true);
    const result = JSON.parse(readFileSync(join(app, 'reports', 'results.json'), 'utf8')) as {
      summary: { total: number; passed: number; failed: number };
      spec: { sha256: string };
      target: { embedded: boolean };
    };
    expect(result.target.embedded).toBe(true);
    expect(result.summary.failed).toBe(0);
    expect(result.summary.passed).toBeGreaterThan(100);
    expect(result.spec.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('`npx svc-certify list --by-spec` reads the spec shipped in the package', async () => {
    const ran = await sh(NPX, ['--no-install', 'svc-certify', 'list', '--by-spec'], app);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain('Resources and their fields › Identifier conventions');
    expect(ran.stdout).toContain('runs-read.candidate-id-int64');
  });

  it('`npx svc-certify serve --list-faults` lists the sandbox faults', async () => {
    const ran = await sh(NPX, ['--no-install', 'svc-certify', 'serve', '--list-faults'], app);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toMatch(/^activation\.code-reusable\s+/m);
  });
});
