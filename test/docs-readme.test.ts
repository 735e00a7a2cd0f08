// The README's recipes, run with bash as written against the built launcher (on PATH as
// `svc-certify`): the real-deployment block against a served sandbox, whose provisioned credentials
// replace the placeholders the page shows (the key, the secrets, the codes, the host names); only the
// served sandbox's pace (SVC_TIME_SCALE=60) is added. It must end with the exit code the page says.
// The quick start (`npx svc-certify run` outside CI) is test/package-install.test.ts's.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  cleanEnv,
  freePort,
  launcherOnPath,
  ROOT,
  runBash,
  serveProvisioned,
  testedBlock,
  tmp,
} from './cli-support.js';

const PAGE = 'README.md';
const TEXT = readFileSync(join(ROOT, PAGE), 'utf8');

/** Every `--flag VALUE` and `NAME=VALUE` the block writes, for the substitutions. */
const written = (text: string, pattern: RegExp): string[] => [...text.matchAll(pattern)].map((m) => m[1]!);

describe("the README's real-deployment recipe, run with bash as written", () => {
  it('ends Certified, exit 0, against a served sandbox given the inputs it lists', async () => {
    const text = testedBlock(TEXT, PAGE, 'real-deployment', 'sh');
    const cwd = tmp('svc-readme-');
    const [apiPort, hookPort] = [await freePort(), await freePort()];
    const served = await serveProvisioned(
      ['--port', String(apiPort), '--webhook-url', `http://127.0.0.1:${hookPort}/hooks`, '--allow-loopback-webhooks'],
      cwd,
    );
    try {
      const p = served.provision;
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
      const bin = launcherOnPath(cwd);
      const {
        code,
        stdout: out,
        stderr: err,
      } = await runBash(script, {
        cwd,
        env: cleanEnv({ PATH: `${bin}:${process.env.PATH ?? ''}`, SVC_TIME_SCALE: '60' }),
      });
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
      await served.stop('SIGTERM');
    }
  }, 180_000);
});
