// The README's recipes, run with bash as written against the built launcher (on PATH as
// `svc-certify`): the real-deployment block against a served sandbox, whose provisioned credentials
// replace the placeholders the page shows (the key, the secrets, the codes, the host names); only the
// served sandbox's pace (SVC_TIME_SCALE=60) is added. It must end with the exit code the page says.
// The quick start (`npx svc-certify run` outside CI) is test/package-install.test.ts's.

import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv, freePort, ROOT, start, tmp } from './cli-support.js';

const TEXT = readFileSync(join(ROOT, 'README.md'), 'utf8');

function block(name: string): string {
  const m = new RegExp(`<!-- tested: ${name} -->\\s*\`\`\`sh\\n([\\s\\S]*?)\\n\`\`\``).exec(TEXT);
  if (!m) throw new Error(`README.md has no sh block marked <!-- tested: ${name} -->`);
  return m[1]!;
}

/** Every `--flag VALUE` and `NAME=VALUE` the block writes, for the substitutions. */
const written = (text: string, pattern: RegExp): string[] => [...text.matchAll(pattern)].map((m) => m[1]!);

describe("the README's real-deployment recipe, run with bash as written", () => {
  it('ends Certified, exit 0, against a served sandbox given the inputs it lists', async () => {
    const text = block('real-deployment');
    const cwd = tmp('svc-readme-');
    const [apiPort, hookPort] = [await freePort(), await freePort()];
    const provision = join(cwd, 'provision.json');
    const serve = start(
      [
        'serve',
        '--port',
        String(apiPort),
        '--provision',
        provision,
        '--time-scale',
        '60',
        '--webhook-url',
        `http://127.0.0.1:${hookPort}/hooks`,
        '--allow-loopback-webhooks',
      ],
      { cwd },
    );
    let served = '';
    serve.stdout!.on('data', (d: Buffer) => (served += d.toString('utf8')));
    try {
      while (!/listening on http/.test(served) || !existsSync(provision)) {
        if (serve.exitCode !== null) throw new Error(`serve did not start: ${served}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const p = JSON.parse(readFileSync(provision, 'utf8')) as Record<string, string | string[]>;
      // The page's placeholders, in the order it writes them, and what the served sandbox issued.
      const codes = written(text, /--activation-code (\S+)/g);
      const provisioned = p.activation_codes as string[];
      expect(codes.length).toBeLessThanOrEqual(provisioned.length);
      const swaps: Array<[string, string]> = [
        ['https://sandbox.example.com/v1', String(p.base_url)],
        ['0.0.0.0:8787', `127.0.0.1:${hookPort}`],
        ['https://hooks.example.com/svc', `http://127.0.0.1:${hookPort}/hooks`],
        ...codes.map((c, i): [string, string] => [c, provisioned[i]!]),
        ...written(text, /--expired-code (\S+)/g).map((c): [string, string] => [c, String(p.expired_code)]),
      ];
      const secrets: Record<string, string> = {
        SVC_PARTNER_KEY: String(p.partner_key),
        SVC_WEBHOOK_SECRET: String(p.webhook_secret),
        SVC_DISABLED_ORG_TOKEN: String(p.disabled_org_token),
        SVC_DISABLED_PARTNER_KEY: String(p.disabled_partner_key),
        SVC_OTHER_PARTNER_KEY: String(p.other_partner_key),
      };
      let script = text;
      for (const [from, to] of swaps) script = script.split(from).join(to);
      // `export NAME=placeholder`: each exported variable the page lists gets its issued value.
      for (const name of written(text, /\b(SVC_[A-Z_]+)=/g)) {
        expect(secrets[name], `README exports ${name}, which the served sandbox does not issue`).toBeDefined();
        script = script.replace(new RegExp(`\\b${name}=\\S+`), `${name}=${secrets[name]!}`);
      }
      const bin = join(cwd, 'bin');
      mkdirSync(bin);
      writeFileSync(join(bin, 'svc-certify'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
      chmodSync(join(bin, 'svc-certify'), 0o755);
      const certify = spawn('bash', ['--noprofile', '--norc', '-e', '-o', 'pipefail', '-c', script], {
        cwd,
        env: cleanEnv({ PATH: `${bin}:${process.env.PATH ?? ''}`, SVC_TIME_SCALE: '60' }),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      certify.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
      certify.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
      const code = await new Promise<number | null>((done) => certify.on('close', done));
      expect(
        code,
        `${err}\n${out
          .split('\n')
          .filter((l) => /[✗!○]/.test(l))
          .join('\n')}`,
      ).toBe(0);
      expect(out).toMatch(/^Certified: /m);
      const results = JSON.parse(readFileSync(join(cwd, 'reports', 'results.json'), 'utf8')) as { verdict: string };
      expect(results.verdict).toBe('certified');
    } finally {
      serve.kill('SIGTERM');
      if (serve.exitCode === null) await new Promise((r) => serve.on('close', r));
    }
  }, 180_000);
});
