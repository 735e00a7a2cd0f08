// `svc-certify run` with no --base-url: the reference sandbox in this process on loopback, a
// provisioned partner, and the temporary webhook receiver registered as that partner's URL.

import type { Config } from '../config/config.js';
import type { RunningSandbox } from '../sandbox/index.js';
import type { WebhookReceiver } from '../webhook/receiver.js';

export interface EmbeddedTarget {
  sandbox: RunningSandbox;
  /** What the provision gave, as configuration values (flags given by the user for these are ignored). */
  config: Config;
  webhooks: { receiver: WebhookReceiver; publicUrl: string };
  close(): Promise<void>;
}

export interface EmbeddedTargetOptions {
  timeScale: number;
  rateLimit: number;
  faults?: string[];
  /** Conformant variants to switch on (tests: the variant matrix). */
  variants?: string[];
  /** Unused activation codes to provision (default 4: the full catalogue with --exhaust-limits). */
  codes?: number;
  /** Sandbox mode (default 'sandbox'); tests certify a production-mode sandbox too. */
  mode?: 'sandbox' | 'production';
  /** Success status of upserts and decisions (the spec leaves it open); tests vary it. */
  createdStatus?: 200 | 201 | 202;
  /** Production mode: each new organization's starting wallet (tests: one too low to pay a reveal). */
  walletCredits?: number;
}

export async function startEmbeddedTarget(base: Config, opts: EmbeddedTargetOptions): Promise<EmbeddedTarget> {
  const [{ startSandbox }, { startWebhookReceiver }] = await Promise.all([
    import('../sandbox/index.js'),
    import('../webhook/receiver.js'),
  ]);
  const sandbox = await startSandbox({
    host: '127.0.0.1',
    port: 0,
    timeScale: opts.timeScale,
    rateLimitPerMinute: opts.rateLimit,
    allowLoopbackWebhooks: true,
    ...(opts.faults ? { faults: opts.faults } : {}),
    ...(opts.variants ? { variants: opts.variants } : {}),
    ...(opts.mode ? { mode: opts.mode } : {}),
    ...(opts.createdStatus ? { createdStatus: opts.createdStatus } : {}),
    ...(opts.walletCredits !== undefined ? { initialWalletBalance: opts.walletCredits } : {}),
  });
  let receiver: WebhookReceiver | undefined;
  try {
    // Four codes, what `serve --provision` hands out: the primary organization, the typed redemption
    // (normalization, single use, the isolation checks' second organization), external_id_taken, and
    // the quota check of --exhaust-limits (src/api-setup/code-plan.ts). Every test certifies with them.
    const p = sandbox.provision({ codes: opts.codes ?? 4, rateLimitPerMinute: opts.rateLimit });
    receiver = await startWebhookReceiver({ secret: p.webhook_secret, listen: '127.0.0.1:0' });
    const partnerId = sandbox.operator.partnerIdForKey(p.partner_key);
    if (!partnerId) throw new Error('embedded sandbox: the provisioned partner key is unknown to its operator');
    sandbox.operator.setWebhookUrl(partnerId, receiver.url);
    const config: Config = {
      ...base,
      baseUrl: p.base_url,
      partnerKey: p.partner_key,
      // The gate spends no code: it works in an organization already connected, as on a real target.
      orgToken: base.gate ? p.org_token : undefined,
      activationCodes: base.gate ? [] : p.activation_codes,
      expiredCode: p.expired_code,
      disabledOrgToken: p.disabled_org_token,
      disabledPartnerKey: p.disabled_partner_key,
      otherPartnerKey: p.other_partner_key,
      webhookSecret: p.webhook_secret,
      webhookPublicUrl: receiver.url,
    };
    const r = receiver;
    return {
      sandbox,
      config,
      webhooks: { receiver: r, publicUrl: r.url },
      async close() {
        await r.close().catch(() => undefined);
        await sandbox.close();
      },
    };
  } catch (e) {
    await receiver?.close().catch(() => undefined);
    await sandbox.close();
    throw e;
  }
}
