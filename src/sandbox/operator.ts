// The service operator's side, in-process and typed: what the spec says "is done by the service operator".
import { checkWebhookUrl } from './collaborators.js';
import { CODE_VALIDITY_MS, redeemCode } from './activation.js';
import { ApiError, type AppContext } from './context.js';
import {
  hashSecret,
  newActivationCode,
  newPartnerKey,
  newUuid,
  newWebhookSecret,
  normalizeCode,
  secretPrefix,
} from './ids.js';
import type { Provision, ProvisionOptions } from './provision-types.js';
import type { Partner } from './store.js';

class OperatorError extends Error {
  override name = 'OperatorError';
}

export interface CreatedPartner {
  partnerId: string;
  /** Shown once; only its hash is kept. */
  partnerKey: string;
  webhookSecret: string;
}

export interface PartnerSummary {
  partnerId: string;
  name: string;
  keyPrefix: string;
  enabled: boolean;
  webhookUrl: string | undefined;
  ratePerMinute: number;
  ratePerDay: number;
  organizations: Array<{
    organizationId: string;
    externalId: string;
    name: string;
    enabled: boolean;
    walletBalance: number;
  }>;
}

export class Operator {
  constructor(private readonly app: AppContext) {}

  createPartner(
    opts: { name?: string; rateLimitPerMinute?: number; rateLimitPerDay?: number; defaultLang?: 'he' | 'en' } = {},
  ): CreatedPartner {
    const key = newPartnerKey();
    const partner: Partner = {
      id: newUuid(),
      name: opts.name ?? 'Sandbox Partner',
      keyHash: hashSecret(key),
      keyPrefix: secretPrefix(key),
      enabled: true,
      webhookSecret: newWebhookSecret(),
      webhookUrl: undefined,
      ratePerMinute: opts.rateLimitPerMinute ?? this.app.config.rateLimitPerMinute,
      ratePerDay: opts.rateLimitPerDay ?? this.app.config.rateLimitPerDay,
      defaultLang: opts.defaultLang ?? 'he',
    };
    this.app.store.partners.set(partner.id, partner);
    this.app.store.partnersByKeyHash.set(partner.keyHash, partner);
    this.app.config.log(`partner ${partner.id} created (key ${partner.keyPrefix}…)`);
    return { partnerId: partner.id, partnerKey: key, webhookSecret: partner.webhookSecret };
  }

  /** Issues a new webhook signing secret for the partner (the previous one stops signing). */
  createWebhookSecret(partnerId: string): string {
    const partner = this.partner(partnerId);
    partner.webhookSecret = newWebhookSecret();
    return partner.webhookSecret;
  }

  /** A new `SVC-XXXX-XXXX` code; `expired: true` makes one already past its validity. */
  createActivationCode(
    partnerId: string,
    opts: { expired?: boolean; organizationName?: string; validForMs?: number } = {},
  ): string {
    this.partner(partnerId);
    const now = this.app.now();
    let display = newActivationCode();
    while (this.app.store.codes.has(normalizeCode(display))) display = newActivationCode();
    const validity = opts.validForMs ?? CODE_VALIDITY_MS / this.app.config.timeScale;
    this.app.store.codes.set(normalizeCode(display), {
      normalized: normalizeCode(display),
      display,
      partnerId,
      organizationName: opts.organizationName ?? `Sandbox Organization ${display.slice(-4)}`,
      createdAt: opts.expired ? now - validity - 1 : now,
      expiresAt: opts.expired ? now - 1 : now + validity,
      redeemedAt: undefined,
    });
    return display;
  }

  /** Creates and redeems a code: a connected organization and its token. */
  connectOrganization(
    partnerId: string,
    externalId: string,
    organizationName?: string,
  ): { organizationId: string; orgToken: string } {
    const partner = this.partner(partnerId);
    const code = this.createActivationCode(partnerId, { organizationName });
    try {
      const { org, token } = redeemCode({ app: this.app }, partner, code, externalId);
      return { organizationId: org.id, orgToken: token };
    } catch (e) {
      if (e instanceof ApiError) throw new OperatorError(`cannot connect organization: ${e.code}`);
      throw e;
    }
  }

  /** Registers (or with null, removes) the partner's webhook URL; refuses a URL the queue would never send to. */
  setWebhookUrl(partnerId: string, url: string | null): void {
    const partner = this.partner(partnerId);
    if (url !== null) {
      if (this.app.config.allowLoopbackWebhooks) {
        if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
          throw new OperatorError(`webhook URL refused: ${url} is not an http(s) URL`);
      } else {
        const verdict = checkWebhookUrl(url, { allowLoopback: false });
        if (!verdict.ok)
          throw new OperatorError(
            `webhook URL refused: ${verdict.reason} (the operator switch allowLoopbackWebhooks permits loopback)`,
          );
      }
    }
    partner.webhookUrl = url ?? undefined;
    this.app.queue.wake();
  }

  setPartnerEnabled(partnerId: string, enabled: boolean): void {
    this.partner(partnerId).enabled = enabled;
    if (enabled) this.app.queue.wake();
  }

  setOrganizationEnabled(organizationId: string, enabled: boolean): void {
    this.organization(organizationId).enabled = enabled;
    if (enabled) this.app.queue.wake();
  }

  /** A new key; the old one stops working at once, with no overlap. */
  rotatePartnerKey(partnerId: string): string {
    const partner = this.partner(partnerId);
    const key = newPartnerKey();
    this.app.store.partnersByKeyHash.delete(partner.keyHash);
    partner.keyHash = hashSecret(key);
    partner.keyPrefix = secretPrefix(key);
    this.app.store.partnersByKeyHash.set(partner.keyHash, partner);
    this.app.config.log(`partner ${partner.id} key rotated (new key ${partner.keyPrefix}…)`);
    return key;
  }

  setWalletBalance(organizationId: string, credits: number): void {
    if (!Number.isInteger(credits) || credits < 0) throw new OperatorError('wallet balance must be an integer >= 0');
    this.organization(organizationId).walletBalance = credits;
  }

  walletBalance(organizationId: string): number {
    return this.organization(organizationId).walletBalance;
  }

  setRateLimit(partnerId: string, limits: { perMinute?: number; perDay?: number }): void {
    const partner = this.partner(partnerId);
    if (limits.perMinute !== undefined) partner.ratePerMinute = limits.perMinute;
    if (limits.perDay !== undefined) partner.ratePerDay = limits.perDay;
    this.app.limiter.reset(partnerId);
  }

  /** Looks a partner up by key (only its hash is compared). */
  partnerIdForKey(partnerKey: string): string | undefined {
    return this.app.store.partnersByKeyHash.get(hashSecret(partnerKey))?.id;
  }

  organizationIdForToken(orgToken: string): string | undefined {
    return this.app.store.orgsByTokenHash.get(hashSecret(orgToken))?.id;
  }

  describePartner(partnerId: string): PartnerSummary {
    const p = this.partner(partnerId);
    const organizations = [...this.app.store.organizations.values()]
      .filter((o) => o.partnerId === p.id)
      .map((o) => ({
        organizationId: o.id,
        externalId: o.externalId,
        name: o.name,
        enabled: o.enabled,
        walletBalance: o.walletBalance,
      }))
      .sort((a, b) => a.externalId.localeCompare(b.externalId));
    return {
      partnerId: p.id,
      name: p.name,
      keyPrefix: p.keyPrefix,
      enabled: p.enabled,
      webhookUrl: p.webhookUrl,
      ratePerMinute: p.ratePerMinute,
      ratePerDay: p.ratePerDay,
      organizations,
    };
  }

  /** Webhook delivery attempts so far (from the queue). */
  webhookAttempts(): ReturnType<AppContext['queue']['attempts']> {
    return this.app.queue.attempts();
  }

  /** Everything a certifier needs against this sandbox (see Provision). */
  provision(baseUrl: string, opts: ProvisionOptions = {}): { provision: Provision; partnerId: string } {
    const codes = Math.max(4, opts.codes ?? 6);
    const main = this.createPartner({ name: 'Certification Partner', rateLimitPerMinute: opts.rateLimitPerMinute });
    if (opts.webhookUrl) this.setWebhookUrl(main.partnerId, opts.webhookUrl);
    const activation = Array.from({ length: codes }, () => this.createActivationCode(main.partnerId));
    const expired = this.createActivationCode(main.partnerId, { expired: true });
    const disabledOrg = this.connectOrganization(
      main.partnerId,
      `disabled-org-${newUuid().slice(0, 8)}`,
      'Disabled Organization',
    );
    this.setOrganizationEnabled(disabledOrg.organizationId, false);
    const connected = this.connectOrganization(
      main.partnerId,
      `connected-org-${newUuid().slice(0, 8)}`,
      'Connected Organization',
    );
    const other = this.createPartner({ name: 'Disabled Partner' });
    this.setPartnerEnabled(other.partnerId, false);
    const second = this.createPartner({ name: 'Second Partner', rateLimitPerMinute: opts.rateLimitPerMinute });
    const provision: Provision = {
      base_url: baseUrl,
      partner_key: main.partnerKey,
      webhook_secret: main.webhookSecret,
      activation_codes: activation,
      org_token: connected.orgToken,
      expired_code: expired,
      disabled_org_token: disabledOrg.orgToken,
      disabled_partner_key: other.partnerKey,
      other_partner_key: second.partnerKey,
    };
    return { provision, partnerId: main.partnerId };
  }

  private partner(partnerId: string): Partner {
    const p = this.app.store.partners.get(partnerId);
    if (!p) throw new OperatorError(`unknown partner ${partnerId}`);
    return p;
  }

  private organization(organizationId: string) {
    const o = this.app.store.organizations.get(organizationId);
    if (!o) throw new OperatorError(`unknown organization ${organizationId}`);
    return o;
  }
}
