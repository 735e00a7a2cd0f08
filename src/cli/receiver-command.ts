// `svc-certify receiver --url URL`: certifies a partner's webhook endpoint with the deliveries of
// src/receiver-cert, then writes the reports through the shared report options.

import { createRedactor, previewSecret } from '../config/redact.js';
import { namedSecret } from '../config/secret-options.js';
import { resolveOptions, type Env, type ResolvedOptions } from '../config/resolve-options.js';
import { COMMAND_OPTIONS } from './command-options.js';
import { assembleResult } from '../runner/assemble-result.js';
import { toolVersion } from '../runner/tool-files.js';
import { certifyReceiver } from '../receiver-cert/certify-receiver.js';
import { envelopeIdsOf } from '../receiver-cert/deliveries.js';
import { RECEIVER_REGISTRY, RECEIVER_SUITE } from '../receiver-cert/receiver-checks.js';
import {
  createSettingsReporters,
  finishCertification,
  prepareReports,
  resolveReportSettings,
} from './report-options.js';
import { watchSignals } from './signals.js';
import { UsageError } from './usage-error.js';
import { specDigest } from '../spec/spec-digest.js';

type ReceiverOptions = ResolvedOptions<typeof COMMAND_OPTIONS.receiver>;

/** The endpoint to certify, its secret and the envelope's ids, refused with a usage error when unusable. */
function receiverInputs(o: ReceiverOptions) {
  const url = o.get('url');
  if (url === undefined)
    throw new UsageError(
      'receiver: --url is required: the webhook endpoint to certify, e.g. --url https://staging.partner.example/hooks/svc',
    );
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(
      `receiver: ${o.source('url')} ${JSON.stringify(url)} is not a URL; give the full address, e.g. https://staging.partner.example/hooks/svc`,
    );
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new UsageError(
      `receiver: ${o.source('url')} must be https:// (or http:// with --allow-private), not ${parsed.protocol}`,
    );
  // Its validator already refused one too short to redact safely.
  const secret = o.get('webhookSecret');
  if (!secret)
    throw new UsageError(
      'receiver: no webhook secret: give --webhook-secret or set SVC_WEBHOOK_SECRET (the secret the service signs deliveries with)',
    );
  const ids = envelopeIdsOf(o.get('orgExternalId'), o.get('runId'), o.get('jobExternalId'));
  if ('error' in ids) throw new UsageError(ids.error);
  return { url, secret, ids };
}

export async function receiverCommand(flags: Record<string, unknown>, env: Env = process.env): Promise<number> {
  const o = resolveOptions(COMMAND_OPTIONS.receiver, { flags, env });
  const { url, secret, ids } = receiverInputs(o);

  const settings = await resolveReportSettings(flags, { env });
  await prepareReports(settings);
  const reporters = await createSettingsReporters(settings);
  const allowPrivate = o.get('allowPrivate') ?? false;
  const insecure = o.get('insecure') ?? false;
  const planned = RECEIVER_REGISTRY.checks.map((c) => ({ id: c.id, title: c.title, suite: c.suite }));
  const target = { baseUrl: url, environment: 'unknown' as const, embedded: false };
  for (const r of reporters) r.onRunStart?.({ checks: planned, suites: [RECEIVER_SUITE], target });
  for (const r of reporters) for (const c of planned) r.onCheckStart?.(c.id);

  const startedAt = new Date();
  // SIGINT/SIGTERM cut the deliveries under way; the checks not ended are recorded interrupted and the
  // reports are written (exit 130/143), as for run.
  const controller = new AbortController();
  const signals = watchSignals();
  void signals.first.then((signal) => controller.abort(new Error(`interrupted (${signal})`)));
  try {
    const checks = await certifyReceiver({
      url,
      secret,
      allowPrivate,
      insecure,
      envelope: ids,
      userAgent: `svc-certify/${toolVersion()}`,
      signal: controller.signal,
      onCheckEnd: (result) => reporters.forEach((r) => r.onCheckEnd?.(result)),
    });
    const result = assembleResult({
      spec: specDigest(),
      certification: 'receiver',
      config: {
        url,
        webhookSecret: previewSecret(secret),
        allowPrivate,
        insecure,
        organizationExternalId: ids.organizationExternalId,
        ...(ids.runId ? { runId: ids.runId } : {}),
        reportDir: settings.reportDir,
        reporters: settings.reporters,
      },
      target,
      startedAt,
      suites: [RECEIVER_SUITE],
      checks,
    });
    const signal = signals.received();
    // The one redaction of what is written, over the whole result (the live console saw each check's
    // preview, redacted apart and never written).
    const whole = createRedactor([namedSecret('webhookSecret', secret)]).value(result);
    return await finishCertification(signal ? { ...whole, interrupted: { signal } } : whole, settings, {
      reporters,
      knownIds: planned.map((c) => c.id),
    });
  } finally {
    signals.dispose();
  }
}
