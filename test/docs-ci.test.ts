// The CI examples of docs/ci.md, run as written: the shell lines are taken from the page's code blocks
// (each marked `<!-- tested: NAME -->`), so the examples cannot drift from the tool. They run in a folder
// where the packed package is installed (as `npx svc-certify` finds it in CI once the project's install
// step ran), each line in bash with -e and pipefail as CI runners do. The target is a served sandbox
// (`svc-certify serve --provision`), fresh for each example (activation codes are single-use): its
// provisioned credentials stand in for the CI secrets the page names, and only the served sandbox's
// pace (SVC_TIME_SCALE=60: cert-slow's three minutes take three seconds) is added. Each example must
// end with the exit code the page says.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { freePort, REPORT_FILES, ROOT, serveProvisioned, testedBlock as pageBlock } from './cli-support.js';
import { packAndInstall, sh, type Ran } from './support/packed-app.js';
import { vendorFile } from './support/vendor-file.js';

const PAGE = 'docs/ci.md';
const TEXT = readFileSync(join(ROOT, PAGE), 'utf8');
const XSD = vendorFile('junit/junit-10.xsd');

/** The code block that follows `<!-- tested: name -->`. */
const testedBlock = (name: string): string => pageBlock(TEXT, PAGE, name);

/** Values of `key: value` in the block (block or flow style), in order. */
function yamlValues(block: string, key: string): string[] {
  return [...block.matchAll(new RegExp(`(?:^|[\\s{,])${key}: ([^,}\\n]+)`, 'gm'))].map((m) => m[1]!.trim());
}

function bash(script: string, cwd: string, env: Record<string, string> = {}): Promise<Ran> {
  return sh('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], cwd, env);
}

/** The `SVC_*` variables a block names (`SVC_X: value` in an env: or variables: map, or `(SVC_X …)` in prose). */
function variablesOf(text: string): string[] {
  return [...new Set([...text.matchAll(/\b(SVC_[A-Z_]+)\b/g)].map((m) => m[1]!))];
}

/** A served sandbox: its CI secrets by variable name, and how to stop it. */
interface Served {
  secrets: Record<string, string>;
  close(): Promise<void>;
}

/**
 * `svc-certify serve` with a provision file and webhooks registered to a local listener: what an
 * operator issues for a deployment, as the variables docs/ci.md names.
 */
async function serveSandbox(dir: string): Promise<Served> {
  const hookPort = await freePort();
  const served = await serveProvisioned(
    [
      '--port',
      String(await freePort()),
      '--webhook-url',
      `http://127.0.0.1:${hookPort}/hooks`,
      '--allow-loopback-webhooks',
    ],
    dir,
  );
  const p = served.provision;
  const secrets: Record<string, string> = {
    SVC_BASE_URL: String(p.base_url),
    SVC_PARTNER_KEY: String(p.partner_key),
    SVC_ACTIVATION_CODES: (p.activation_codes as string[]).join(','),
    SVC_EXPIRED_CODE: String(p.expired_code),
    SVC_DISABLED_ORG_TOKEN: String(p.disabled_org_token),
    SVC_DISABLED_PARTNER_KEY: String(p.disabled_partner_key),
    SVC_OTHER_PARTNER_KEY: String(p.other_partner_key),
    SVC_WEBHOOK_SECRET: String(p.webhook_secret),
    SVC_WEBHOOK_LISTEN: `127.0.0.1:${hookPort}`,
    SVC_ORG_TOKEN: String(p.org_token),
  };
  return {
    secrets,
    close: async () => {
      await served.stop('SIGTERM');
    },
  };
}

/** The secrets of `served` that `names` lists; a name the sandbox cannot supply is a page the test cannot run. */
function ciVariables(served: Served, names: readonly string[]): Record<string, string> {
  const env: Record<string, string> = { SVC_TIME_SCALE: '60' };
  for (const name of names) {
    const value = served.secrets[name];
    if (value === undefined) throw new Error(`docs/ci.md names ${name}, which no served sandbox provisions`);
    env[name] = value;
  }
  return env;
}

/** The project's own install step (`npm ci`): done already, the package is installed where the job runs. */
const isInstallStep = (command: string): boolean => /^npm ci\b/.test(command.trim());

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
  }, 300_000);

  it('GitHub Actions: the steps end 0 and Certified against a served deployment given the variables the page names; summary, artifact and JUnit exist', async () => {
    const block = testedBlock('github-actions');
    const runs = yamlValues(block, 'run').filter((command) => !isInstallStep(command));
    expect(runs[0]).toMatch(/^npx svc-certify run /);
    const cwd = work();
    const served = await serveSandbox(cwd);
    try {
      const env = ciVariables(served, variablesOf(block));
      const summaryFile = join(cwd, 'step-summary.md');
      writeFileSync(summaryFile, '');
      for (const command of runs) {
        const ran = await bash(command, cwd, { ...env, GITHUB_STEP_SUMMARY: summaryFile });
        expect(
          ran.code,
          `${command}\n${ran.stderr}\n${ran.stdout
            .split('\n')
            .filter((l) => /[✗○!]/.test(l))
            .join('\n')}`,
        ).toBe(0);
      }
      expect(readFileSync(summaryFile, 'utf8')).toMatch(/^# ✅ svc-certify: Certified/);
      // upload-artifact's path and the test-report action's report_paths.
      const [artifact] = yamlValues(block, 'path');
      expect(statSync(join(cwd, artifact!)).isDirectory()).toBe(true);
      for (const file of REPORT_FILES) expect(existsSync(join(cwd, artifact!, file)), file).toBe(true);
      const [junit] = yamlValues(block, 'report_paths');
      expectValidJunit(join(cwd, junit!));
    } finally {
      await served.close();
    }
  }, 240_000);

  it('gate and nightly: two gates in a row on one organization pass, not certified, spending no code; the nightly run certifies with its codes from the helper', async () => {
    const [gate, nightly] = testedBlock('gate-and-nightly')
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith('#'));
    expect(gate).toMatch(/^SVC_GATE=1 npx svc-certify run /);
    expect(nightly).toMatch(/--activation-code-command \.\/issue-activation-code/);
    const cwd = work();
    const served = await serveSandbox(cwd);
    try {
      const target = ciVariables(served, ['SVC_BASE_URL', 'SVC_PARTNER_KEY']);
      const { SVC_ACTIVATION_CODES: codes, SVC_ORG_TOKEN: orgToken, ...full } = served.secrets;
      for (const round of [1, 2]) {
        const ran = await bash(gate!, cwd, { ...target, SVC_ORG_TOKEN: orgToken! });
        expect(ran.code, `gate ${round}\n${ran.stderr}`).toBe(0);
        const results = JSON.parse(readFileSync(join(cwd, 'reports', 'gate', 'results.json'), 'utf8')) as {
          verdict: string;
          uncertifiedBy?: string[];
        };
        expect(results).toMatchObject({ verdict: 'passed-not-certified', uncertifiedBy: ['gate'] });
      }
      // The operator's helper: one unused code per call, from the codes the sandbox issued (none spent above).
      writeFileSync(join(cwd, 'codes.txt'), `${codes!.split(',').join('\n')}\n`);
      writeFileSync(
        join(cwd, 'issue-activation-code'),
        '#!/bin/bash\nset -e\nhead -n1 codes.txt\ntail -n +2 codes.txt > codes.next && mv codes.next codes.txt\n',
        { mode: 0o755 },
      );
      const ran = await bash(nightly!, cwd, { ...full, SVC_TIME_SCALE: '60' });
      expect(
        ran.code,
        `${ran.stderr}\n${ran.stdout
          .split('\n')
          .filter((l) => /[✗○!]/.test(l))
          .join('\n')}`,
      ).toBe(0);
      expect(readFileSync(join(cwd, 'reports', 'nightly', 'summary.md'), 'utf8')).toMatch(
        /^# ✅ svc-certify: Certified/,
      );
    } finally {
      await served.close();
    }
  }, 300_000);

  it('GitHub Actions with the target secret missing: exit 2 naming SVC_BASE_URL, and the always steps still find their files', async () => {
    const block = testedBlock('github-actions');
    const runs = yamlValues(block, 'run').filter((command) => !isInstallStep(command));
    const cwd = work();
    const summaryFile = join(cwd, 'step-summary.md');
    writeFileSync(summaryFile, '');
    // CI=1 (cleanEnv): a job whose SVC_BASE_URL came out empty must not pass on the reference sandbox.
    const ran = await bash(runs[0]!, cwd, { SVC_BASE_URL: '', GITHUB_STEP_SUMMARY: summaryFile });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(/no target in CI: set SVC_BASE_URL .* give --embedded/);
    for (const command of runs.slice(1))
      expect((await bash(command, cwd, { GITHUB_STEP_SUMMARY: summaryFile })).code).toBe(0);
    expect(readFileSync(summaryFile, 'utf8')).toMatch(/^# ❌ svc-certify: Error: the certification did not start/);
    const [junit] = yamlValues(block, 'report_paths');
    expectValidJunit(join(cwd, junit!));
  });

  it('GitLab CI: the script ends 0 and Certified; artifacts: reports: junit names a valid JUnit, the artifact paths exist', async () => {
    const block = testedBlock('gitlab-ci');
    const script = /^ {2}script:\n((?: {4}- .*\n?)+)/m.exec(block);
    expect(script, 'a script: list in the GitLab example').not.toBeNull();
    const lines = script![1]!
      .trimEnd()
      .split('\n')
      .map((l) => l.replace(/^ {4}- /, ''))
      .filter((command) => !isInstallStep(command));
    const cwd = work();
    const served = await serveSandbox(cwd);
    try {
      // The page's variables: the block's (SVC_BASE_URL, SVC_WEBHOOK_LISTEN) and the masked ones its next lines list.
      const after = TEXT.slice(TEXT.indexOf(block) + block.length);
      const masked = after.slice(0, after.indexOf('\n## '));
      const env = ciVariables(served, [...variablesOf(block), ...variablesOf(masked)]);
      const ran = await bash(lines.join('\n'), cwd, env);
      expect(
        ran.code,
        `${ran.stderr}\n${ran.stdout
          .split('\n')
          .filter((l) => /[✗○!]|^ {2}/.test(l))
          .join('\n')}`,
      ).toBe(0);
      const results = JSON.parse(readFileSync(join(cwd, 'reports', 'results.json'), 'utf8')) as { verdict: string };
      expect(results.verdict).toBe('certified');
      const paths = /paths: \[([^\]]+)\]/
        .exec(block)![1]!
        .split(',')
        .map((p) => p.trim());
      for (const p of paths) expect(existsSync(join(cwd, p)), p).toBe(true);
      const [junit] = yamlValues(block, 'junit');
      expectValidJunit(join(cwd, junit!));
    } finally {
      await served.close();
    }
  }, 240_000);

  it('plain shell: the service and the built frontend in one dossier, the last exit code the gate (0, then 1)', async () => {
    const block = testedBlock('shell');
    const cwd = work();
    const served = await serveSandbox(cwd);
    let env: Record<string, string>;
    try {
      env = ciVariables(served, Object.keys(served.secrets));
      // The built frontend of the example; a clean one, then one that leaks a key.
      mkdirSync(join(cwd, 'dist'));
      writeFileSync(
        join(cwd, 'dist', 'app.js'),
        'fetch("/api/matches", { headers: { "x-svc-org": sessionToken } });\n',
      );
      const clean = await bash(block, cwd, env);
      expect(clean.code, clean.stderr).toBe(0);
    } finally {
      await served.close();
    }
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
  }, 240_000);
});
