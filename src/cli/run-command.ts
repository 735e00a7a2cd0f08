// `svc-certify run`: resolve the configuration, prepare the report folder, start the embedded sandbox
// when no target is given, certify, then apply the baseline, write reports and turn the verdict into
// the exit code (report-options.ts, shared with every certifying command). SIGINT/SIGTERM interrupts:
// nothing new starts, running checks end `interrupted`, the reports are written, exit 130/143.

import { ConfigError } from '../config/config-error.js';
import { loadConfig } from '../config/load-config.js';
import { certify } from '../api-setup/certify.js';
import { createRunRegistry } from '../api-setup/run-registry.js';
import { ALL_CHECKS, SUITE_ORDER } from '../../suites/index.js';
import {
  createSettingsReporters,
  finishCertification,
  prepareReports,
  reportSettingsOfConfig,
} from './report-options.js';
import { startEmbeddedTarget, type EmbeddedTarget } from '../embedded/embedded-target.js';
import { watchSignals } from './signals.js';
import { checkListenAddress } from './listen-preflight.js';
import { codesFromCommand } from '../config/activation-code-command.js';
import { codesWanted } from '../api-setup/certify-plan.js';

export async function runCommand(flags: Record<string, unknown>): Promise<number> {
  const loaded = loadConfig({ flags, knownSuites: SUITE_ORDER });
  const registry = createRunRegistry(ALL_CHECKS, SUITE_ORDER);
  if (registry.select({ suites: loaded.suites, grep: loaded.grep }).length === 0) {
    throw new ConfigError(
      `the selection (${[loaded.suites.length ? `--suite ${loaded.suites.join(',')}` : '', loaded.grep ? `--grep "${loaded.grep}"` : ''].filter(Boolean).join(' ')}) matches no check; see: svc-certify list`,
    );
  }

  // Read now: a malformed baseline or an unwritable report folder is exit 2 before the certification, not after it.
  const settings = reportSettingsOfConfig(loaded);
  await prepareReports(settings);
  // The receiver of a target this process does not own listens where the operator said: bound now.
  if (loaded.baseUrl !== undefined && loaded.webhookSecret && loaded.webhookListen && loaded.webhookListen.port !== 0) {
    await checkListenAddress(loaded.webhookListen);
  }
  const reporters = await createSettingsReporters(settings);
  // The codes an unattended certification takes from its helper: as many as the plan can spend, asked
  // before anything is sent, so a failing helper is exit 2 before the target is touched.
  if (loaded.activationCodeCommand !== undefined) {
    const wanted = codesWanted(registry.select({ suites: loaded.suites, grep: loaded.grep }), loaded);
    const more = await codesFromCommand(loaded.activationCodeCommand, wanted);
    loaded.activationCodes = [...loaded.activationCodes, ...more];
  }

  let embedded: EmbeddedTarget | undefined;
  const controller = new AbortController();
  const force = new AbortController();
  const signals = watchSignals();
  void signals.first.then((signal) => controller.abort(new Error(`interrupted (${signal})`)));
  void signals.second.then(() => force.abort(new Error('interrupted twice')));
  try {
    if (loaded.baseUrl === undefined) {
      embedded = await startEmbeddedTarget(loaded, { timeScale: loaded.timeScale, rateLimit: loaded.rateLimit });
    }
    // The embedded sandbox is this process's own: it provisions every input, --exhaust-limits' burst and
    // quota included, so only checks that cannot apply to a sandbox skip and the verdict can be `certified`.
    // The gate exhausts nothing, on the embedded sandbox too.
    const config = embedded ? { ...embedded.config, exhaustLimits: !loaded.gate } : loaded;
    const certified = await certify({
      config,
      checks: ALL_CHECKS,
      suiteOrder: SUITE_ORDER,
      reporters,
      embedded: embedded !== undefined,
      ...(embedded ? { webhooks: embedded.webhooks } : {}),
      signal: controller.signal,
      force: force.signal,
    });
    // A signal that came before the last check ended interrupted the certification; one that comes
    // while the reports are written changes nothing (every check had ended).
    const signal = signals.received();
    const result = signal ? { ...certified, interrupted: { signal } } : certified;
    return await finishCertification(result, settings, { reporters, knownIds: ALL_CHECKS.map((c) => c.id) });
  } finally {
    signals.dispose();
    await embedded?.close();
  }
}
