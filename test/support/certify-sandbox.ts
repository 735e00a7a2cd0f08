// Certifies a freshly started reference sandbox in-process, with faults switched on, restricted to
// some checks. The suites' tests and the fault matrix are built on this.

import type { ProgressListener } from '../../src/runner/progress.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedTarget } from '../../src/embedded/embedded-target.js';
import type { Config } from '../../src/config/config.js';
import { loadConfig } from '../../src/config/load-config.js';
import type { CheckDefinition } from '../../src/api-setup/check.js';
import { certify } from '../../src/api-setup/certify.js';
import type { CheckResult, RunResult } from '../../src/runner/results.js';
import { ALL_CHECKS, SUITE_ORDER } from '../../suites/index.js';

export interface CertifySandboxOptions {
  faults?: string[];
  /** Conformant variants of the sandbox to switch on. */
  variants?: string[];
  /** Only these check ids (exact). */
  ids?: string[];
  suites?: string[];
  grep?: string;
  mode?: 'sandbox' | 'production';
  /** Default 600: cert-slow's 3 minutes take 0.3 s, a webhook retry after 1 minute 0.1 s. */
  timeScale?: number;
  rateLimit?: number;
  exhaustLimits?: boolean;
  createdStatus?: 200 | 201 | 202;
  /** Extra run flags (camelCase keys of the config), e.g. { maxSpendCredits: '10' }. */
  flags?: Record<string, unknown>;
  /** Production mode: each new organization's starting wallet (default 500); low to provoke 402 insufficient_credits. */
  walletCredits?: number;
  /** No webhook registered for the partner and no receiver; the user states so (need 'no-webhook-registered'). */
  noWebhook?: boolean;
  /**
   * A set-up mistake: the partner's registered webhook URL replaced (null: none registered) while the
   * certification keeps its receiver and secret and states nothing (no --webhook-not-registered).
   */
  registeredWebhookUrl?: string | null;
  /** Certify an organization given as --org-token (redeemed here from the first code) instead of one the certification redeems. */
  orgToken?: boolean;
  /** Told of every start, progress and end (as the console reporter is). */
  reporters?: ProgressListener[];
  /** The certification's config changed last (after `orgToken`): fewer codes, an input left out. */
  adjust?: (config: Config) => Config;
  /**
   * Where the sandbox runs (default 'in-process': vitest runs the sources, and a worker needs the built
   * file). The benches, run from dist/, take 'worker', as `svc-certify run` does.
   */
  thread?: 'worker' | 'in-process';
}

/** Redeems a code the way an operator's earlier setup did, outside the certification: its token is an --org-token. */
async function redeemOutside(
  config: Pick<Config, 'baseUrl' | 'partnerKey'>,
  code: string,
  externalId = 'connected-before',
): Promise<{ orgToken: string }> {
  const res = await fetch(`${config.baseUrl}/activations/redeem`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-partner-key': config.partnerKey ?? '' },
    body: JSON.stringify({ code, external_id: externalId }),
  });
  const body = (await res.json()) as { org_token?: string };
  if (res.status !== 200 || !body.org_token)
    throw new Error(`redeeming ${code} outside the certification answered ${res.status}`);
  return { orgToken: body.org_token };
}

/** The first provisioned code redeemed outside; the certification gets its token and the other codes. */
async function withOrgToken(config: Config): Promise<Config> {
  const [code, ...rest] = config.activationCodes;
  const { orgToken } = await redeemOutside(config, code!);
  return { ...config, orgToken, activationCodes: rest };
}

export async function certifySandbox(opts: CertifySandboxOptions = {}): Promise<RunResult> {
  const timeScale = opts.timeScale ?? 600;
  const rateLimit = opts.rateLimit ?? 120;
  const base = loadConfig({
    flags: {
      timeScale: String(timeScale),
      rateLimit: String(rateLimit),
      reportDir: mkdtempSync(join(tmpdir(), 'svc-certify-test-')),
      ...(opts.exhaustLimits ? { exhaustLimits: true } : {}),
      ...(opts.grep ? { grep: opts.grep } : {}),
      ...(opts.suites ? { suite: opts.suites } : {}),
      ...opts.flags,
    },
    env: {},
    cwd: tmpdir(),
    knownSuites: SUITE_ORDER,
  });
  const target = await startEmbeddedTarget(base, {
    timeScale,
    rateLimit,
    thread: opts.thread ?? 'in-process',
    ...(opts.faults ? { faults: opts.faults } : {}),
    ...(opts.variants ? { variants: opts.variants } : {}),
    ...(opts.mode ? { mode: opts.mode } : {}),
    ...(opts.createdStatus ? { createdStatus: opts.createdStatus } : {}),
    ...(opts.walletCredits !== undefined ? { walletCredits: opts.walletCredits } : {}),
  });
  try {
    const checks: readonly CheckDefinition[] = opts.ids
      ? ALL_CHECKS.filter((c) => opts.ids!.includes(c.id))
      : ALL_CHECKS;
    if (opts.ids && checks.length !== opts.ids.length) {
      const known = new Set(checks.map((c) => c.id));
      throw new Error(`certifySandbox: unknown check id(s): ${opts.ids.filter((id) => !known.has(id)).join(', ')}`);
    }
    if (opts.noWebhook) {
      await target.setWebhookUrl(null);
      const { webhookSecret: _secret, webhookPublicUrl: _url, ...rest } = target.config;
      return await certify({
        config: { ...rest, noWebhookRegistered: true },
        checks,
        suiteOrder: SUITE_ORDER,
        embedded: true,
      });
    }
    if (opts.registeredWebhookUrl !== undefined) {
      await target.setWebhookUrl(opts.registeredWebhookUrl);
    }
    const config = opts.orgToken ? await withOrgToken(target.config) : target.config;
    return await certify({
      config: opts.adjust ? opts.adjust(config) : config,
      checks,
      suiteOrder: SUITE_ORDER,
      embedded: true,
      webhooks: target.webhooks,
      ...(opts.reporters ? { reporters: opts.reporters } : {}),
    });
  } finally {
    await target.close();
  }
}

export function resultOf(run: RunResult, id: string): CheckResult {
  const found = run.checks.find((c) => c.id === id);
  if (!found) throw new Error(`no result for check ${id}`);
  return found;
}

/** A readable line per check that did not pass, for assertion messages. */
export function notPassed(run: RunResult): string[] {
  return run.checks.filter((c) => c.status !== 'passed').map((c) => `${c.status} ${c.id}: ${c.message}`);
}

/**
 * Failed on the check's own assertion: at least one observation the check itself made. A check that
 * failed only because a shared setup step failed (SetupFailure, "setup step … failed") proves nothing
 * about the rule it is meant to assert.
 */
export function failedOnOwnAssertion(result: CheckResult): boolean {
  return result.status === 'failed' && result.observations.some((o) => !o.message.startsWith('setup step '));
}
