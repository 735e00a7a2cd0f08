// The only form of the configuration ever written to a report: secrets cut to their first
// 12 characters (how the operator identifies a key), PEM contents left out entirely.

import type { Config } from './config.js';
import { previewSecret } from './redact.js';

export function redactedConfig(config: Config): Record<string, unknown> {
  const secret = (s: string | undefined): string | undefined => (s === undefined ? undefined : previewSecret(s));
  const out: Record<string, unknown> = {
    baseUrl: config.baseUrl ?? '(embedded sandbox)',
    partnerKey: secret(config.partnerKey),
    orgToken: secret(config.orgToken),
    activationCodes: config.activationCodes.length,
    expiredCode: config.expiredCode !== undefined,
    disabledOrgToken: secret(config.disabledOrgToken),
    disabledPartnerKey: secret(config.disabledPartnerKey),
    webhookSecret: secret(config.webhookSecret),
    webhookListen: config.webhookListen ? `${config.webhookListen.host}:${config.webhookListen.port}` : undefined,
    webhookPublicUrl: config.webhookPublicUrl,
    webhookTls: config.webhookTls ? { certFile: config.webhookTls.certFile, keyFile: config.webhookTls.keyFile } : undefined,
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
    exhaustLimits: config.exhaustLimits,
    userRole: config.userRole,
    realNamesEnabled: config.realNamesEnabled || undefined,
  };
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out;
}
