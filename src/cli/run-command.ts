// `svc-certify run`: resolve the configuration, start the embedded sandbox when no target is
// given, certify, then apply the baseline, write reports and turn the verdict into the exit code
// (report-options.ts, shared with every certifying command).

import { ConfigError } from '../config/config-error.js';
import { loadConfig } from '../config/load-config.js';
import { certify } from '../runner/certify.js';
import { createRegistry } from '../runner/registry.js';
import { ALL_CHECKS, SUITE_ORDER } from '../../suites/index.js';
import { createSettingsReporters, finishCertification, reportSettingsOfConfig } from './report-options.js';
import { startEmbeddedTarget, type EmbeddedTarget } from '../embedded/embedded-target.js';

export async function runCommand(flags: Record<string, unknown>): Promise<number> {
  const loaded = loadConfig({ flags, knownSuites: SUITE_ORDER });
  const registry = createRegistry(ALL_CHECKS, SUITE_ORDER);
  if (registry.select({ suites: loaded.suites, grep: loaded.grep }).length === 0) {
    throw new ConfigError(
      `the selection (${[loaded.suites.length ? `--suite ${loaded.suites.join(',')}` : '', loaded.grep ? `--grep "${loaded.grep}"` : ''].filter(Boolean).join(' ')}) matches no check; see: svc-certify list`,
    );
  }

  // Read now: a malformed baseline is exit 2 before the certification, not after it.
  const settings = reportSettingsOfConfig(loaded);
  const reporters = await createSettingsReporters(settings);

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
    return await finishCertification(result, settings, { reporters, knownIds: ALL_CHECKS.map((c) => c.id) });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await embedded?.close();
  }
}
