// The CI examples of docs/ci.md, run as written: the shell lines are taken from the page's code blocks
// (each marked `<!-- tested: NAME -->`), so the examples cannot drift from the tool. They run in a folder
// where the packed package is installed (as `npx svc-certify` finds it in CI), each line in bash with
// -e and pipefail as CI runners do. The target's variables (CI secrets) are left out: the embedded
// sandbox stands in for the deployment.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPORT_FILES, ROOT } from './cli-support.js';
import { packAndInstall, sh, type Ran } from './support/packed-app.js';
import { vendorFile } from './support/vendor-file.js';

const PAGE = 'docs/ci.md';
const TEXT = readFileSync(join(ROOT, PAGE), 'utf8');
const XSD = vendorFile('junit/junit-10.xsd');

/** The code block that follows `<!-- tested: name -->`. */
function testedBlock(name: string): string {
  const m = new RegExp(`<!-- tested: ${name} -->\\s*\`\`\`[a-z]*\\n([\\s\\S]*?)\\n\`\`\``).exec(TEXT);
  if (!m) throw new Error(`${PAGE} has no code block marked <!-- tested: ${name} -->`);
  return m[1]!;
}

/** Values of `key: value` in the block (block or flow style), in order. */
function yamlValues(block: string, key: string): string[] {
  return [...block.matchAll(new RegExp(`(?:^|[\\s{,])${key}: ([^,}\\n]+)`, 'gm'))].map((m) => m[1]!.trim());
}

function bash(script: string, cwd: string, env: Record<string, string> = {}): Promise<Ran> {
  return sh('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], cwd, env);
}

function expectValidJunit(file: string): void {
  expect(existsSync(file), file).toBe(true);
  const lint = spawnSync('xmllint', ['--noout', '--schema', XSD, file], { encoding: 'utf8' });
  expect(lint.status, lint.stderr).toBe(0);
}

describe('the CI examples of docs/ci.md, run as written', () => {
  let app: string;
  // A fresh job workspace for each example, inside the folder the package is installed in: npx finds
  // svc-certify in the nearest node_modules above the working directory, as in a checked-out project.
  const work = (): string => mkdtempSync(join(app, 'job-'));

  beforeAll(async () => {
    ({ app } = await packAndInstall());
  }, 120_000);

  it('GitHub Actions: the run steps pass, the job summary gets summary.md, the artifact and JUnit paths exist', async () => {
    const block = testedBlock('github-actions');
    const runs = yamlValues(block, 'run');
    expect(runs.length).toBeGreaterThanOrEqual(2);
    expect(runs[0]).toMatch(/^npx svc-certify run /);
    const cwd = work();
    const summaryFile = join(cwd, 'step-summary.md');
    writeFileSync(summaryFile, '');
    for (const command of runs) {
      const ran = await bash(command, cwd, { GITHUB_STEP_SUMMARY: summaryFile });
      expect(ran.code, `${command}\n${ran.stderr}`).toBe(0);
    }
    expect(readFileSync(summaryFile, 'utf8')).toMatch(/^# ✅ svc-certify: Certified/);
    // upload-artifact's path and the test-report action's report_paths.
    const [artifact] = yamlValues(block, 'path');
    expect(statSync(join(cwd, artifact!)).isDirectory()).toBe(true);
    for (const file of REPORT_FILES) expect(existsSync(join(cwd, artifact!, file)), file).toBe(true);
    const [junit] = yamlValues(block, 'report_paths');
    expectValidJunit(join(cwd, junit!));
  });

  it('GitLab CI: the script passes, artifacts: reports: junit names a valid JUnit, the artifact paths exist', async () => {
    const block = testedBlock('gitlab-ci');
    const script = /^ {2}script:\n((?: {4}- .*\n?)+)/m.exec(block);
    expect(script, 'a script: list in the GitLab example').not.toBeNull();
    const lines = script![1]!
      .trimEnd()
      .split('\n')
      .map((l) => l.replace(/^ {4}- /, ''));
    const cwd = work();
    const ran = await bash(lines.join('\n'), cwd);
    expect(ran.code, ran.stderr).toBe(0);
    const paths = /paths: \[([^\]]+)\]/
      .exec(block)![1]!
      .split(',')
      .map((p) => p.trim());
    for (const p of paths) expect(existsSync(join(cwd, p)), p).toBe(true);
    const [junit] = yamlValues(block, 'junit');
    expectValidJunit(join(cwd, junit!));
  });

  it('plain shell: the service and the built frontend in one dossier, the last exit code the gate', async () => {
    const block = testedBlock('shell');
    const cwd = work();
    // The built frontend of the example; a clean one, then one that leaks a key.
    mkdirSync(join(cwd, 'dist'));
    writeFileSync(join(cwd, 'dist', 'app.js'), 'fetch("/api/matches", { headers: { "x-svc-org": sessionToken } });\n');
    const clean = await bash(block, cwd);
    expect(clean.code, clean.stderr).toBe(0);
    const dossier = JSON.parse(readFileSync(join(cwd, 'reports', 'dossier', 'results.json'), 'utf8')) as {
      certification: string;
      verdict: string;
      parts: Array<{ certification: string }>;
    };
    expect(dossier.certification).toBe('dossier');
    expect(dossier.verdict).toBe('certified');
    expect(dossier.parts.map((p) => p.certification)).toEqual(['run', 'scan']);
    for (const file of REPORT_FILES) expect(existsSync(join(cwd, 'reports', 'dossier', file)), file).toBe(true);

    // The gate: a frontend that leaks a key. The service's result stands; the page's lines that
    // follow its run (scan, then the dossier) are run again.
    writeFileSync(join(cwd, 'dist', 'app.js'), `const key = "spk_live_${'ab'.repeat(24)}";\n`);
    const afterRun = block.split('\n').filter((line) => !/^npx svc-certify run /.test(line));
    expect(afterRun).toHaveLength(block.split('\n').length - 1);
    const leaking = await bash(afterRun.join('\n'), cwd);
    expect(leaking.code).toBe(1);
    expect(readFileSync(join(cwd, 'reports', 'dossier', 'summary.md'), 'utf8').split('\n')[0]).toBe(
      '# ❌ svc-certify dossier: Not certified',
    );
  });
});
