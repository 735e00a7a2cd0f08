// What the operator's provisioning hands out: read by other tools, so its keys are a contract.

/** What `serve --provision FILE` writes; other tools read these keys. */
export interface Provision {
  base_url: string;
  partner_key: string;
  webhook_secret: string;
  activation_codes: string[];
  /** An enabled organization already connected (its code redeemed): what `run --org-token`, and `--gate`, take. */
  org_token: string;
  expired_code: string;
  disabled_org_token: string;
  disabled_partner_key: string;
  /** A second, enabled partner with no organization of its own: partner isolation. */
  other_partner_key: string;
}

export interface ProvisionOptions {
  /** Registers this webhook URL for the provisioned partner. */
  webhookUrl?: string;
  /** Number of unused activation codes (default 6, at least 4). */
  codes?: number;
  rateLimitPerMinute?: number;
}
