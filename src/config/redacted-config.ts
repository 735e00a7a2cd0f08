// The only form of the configuration ever written to a report: the options the table marks secret
// cut to their first 12 characters (how the operator identifies a key), PEM contents left out entirely.

import type { Config } from './config.js';
import { previewSecret } from './redact.js';
import { SECRET_RUN_OPTIONS } from './secret-options.js';

export function redactedConfig(config: Config): Record<string, unknown> {
  const out: Record<string, unknown> = {
    baseUrl: config.baseUrl ?? '(embedded sandbox)',
    partnerKey: config.partnerKey,
    orgToken: config.orgToken,
    activationCodes: config.activationCodes.length,
    // Whether codes came from a command, not the command: its text may carry credentials of its own.
    activationCodeCommand: config.activationCodeCommand !== undefined || undefined,
    expiredCode: config.expiredCode !== undefined,
    disabledOrgToken: config.disabledOrgToken,
    disabledPartnerKey: config.disabledPartnerKey,
    otherPartnerKey: config.otherPartnerKey,
    webhookSecret: config.webhookSecret,
    webhookListen: config.webhookListen ? `${config.webhookListen.host}:${config.webhookListen.port}` : undefined,
    webhookPublicUrl: config.webhookPublicUrl,
    webhookTls: config.webhookTls
      ? { certFile: config.webhookTls.certFile, keyFile: config.webhookTls.keyFile }
      : undefined,
    environment: config.environment,
    maxSpendCredits: config.maxSpendCredits,
    timeScale: config.timeScale,
    rateLimit: config.rateLimit,
    reportDir: config.reportDir,
    reporters: config.reporters,
    suites: config.suites,
    grep: config.grep,
    strict: config.strict,
    baseline: config.baselineFile,
    // The file's name only: the key itself is never read into any output.
    signKey: config.signKeyFile,
    exhaustLimits: config.exhaustLimits,
    gate: config.gate || undefined,
    userRole: config.userRole,
    realNamesEnabled: config.realNamesEnabled || undefined,
    watchRetries: config.watchRetries || undefined,
    explore: config.explore,
    seed: config.seed,
  };
  // Every secret of the table, in place (the order of the keys is the report's), whether or not it is listed above.
  for (const o of SECRET_RUN_OPTIONS) {
    const value = config[o.key];
    out[o.key] = value === undefined ? undefined : previewSecret(value);
  }
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out;
}
