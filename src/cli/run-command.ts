// `svc-certify run`: resolve the configuration, start the embedded sandbox when no target is
// given, certify, write reports, and turn the result into the exit code.

import { ConfigError } from '../config/config-error.js';
import { loadConfig } from '../config/load-config.js';
import { createReporters } from '../report/index.js';
import { certify } from '../runner/certify.js';
import { exitCodeFor } from '../runner/exit-code.js';
import { createRegistry } from '../runner/registry.js';
import { ALL_CHECKS, SUITE_ORDER } from '../../suites/index.js';
import { startEmbeddedTarget, type EmbeddedTarget } from './embedded-target.js';

export async function runCommand(flags: Record<string, unknown>): Promise<number> {
  const loaded = loadConfig({ flags, knownSuites: SUITE_ORDER });
  const registry = createRegistry(ALL_CHECKS, SUITE_ORDER);
  if (registry.select({ suites: loaded.suites, grep: loaded.grep }).length === 0) {
    throw new ConfigError(
      `the selection (${[loaded.suites.length ? `--suite ${loaded.suites.join(',')}` : '', loaded.grep ? `--grep "${loaded.grep}"` : ''].filter(Boolean).join(' ')}) matches no check; see: svc-certify list`,
    );
  }

  const interactive = Boolean(process.stdout.isTTY) && !process.env.CI;
  const color = interactive && process.env.NO_COLOR === undefined;
  const reporters = createReporters(loaded.reporters, { stream: process.stdout, interactive, color });

  let embedded: EmbeddedTarget | undefined;
  const controller = new AbortController();
  const onSignal = (): void => controller.abort(new Error('interrupted'));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    if (loaded.baseUrl === undefined) {
      embedded = await startEmbeddedTarget(loaded, { timeScale: loaded.timeScale, rateLimit: loaded.rateLimit });
    }
    const config = embedded?.config ?? loaded;
    const result = await certify({
      config,
      checks: ALL_CHECKS,
      suiteOrder: SUITE_ORDER,
      reporters,
      embedded: embedded !== undefined,
      ...(embedded ? { webhooks: embedded.webhooks } : {}),
      signal: controller.signal,
    });
    return exitCodeFor(result, config.strict);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await embedded?.close();
  }
}
