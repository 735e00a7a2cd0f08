// Public entry of the reference sandbox. CONTRACT (implemented by the sandbox work; callers: the CLI's
// `serve` and `run` commands, tests, benches). The sandbox imports nothing from the certifier.

import type { SandboxHooks } from './hooks.js';
import type { Operator } from './operator.js';

export type { Operator } from './operator.js';
export type { HookRequest, HookResponse, ObservedExchange, ObservedWebhookAttempt, SandboxHooks, SandboxObservation, SimulatedAnswer } from './hooks.js';

export interface SandboxOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (an ephemeral port). */
  port?: number;
  /** Default 'sandbox'. */
  mode?: 'sandbox' | 'production';
  /** Every duration of the spec divided by this (cert-slow, engine progress, retry schedule, code validity, quota and rate windows). Default 1. */
  timeScale?: number;
  /** Default requests per minute per partner. Default 120. */
  rateLimitPerMinute?: number;
  /** Fault ids to switch on (unknown ids throw). */
  faults?: string[];
  /** Conformant variant ids to switch on (unknown ids throw); see listVariants(). */
  variants?: string[];
  /** Operator switch: allow http:// webhook URLs on loopback. */
  allowLoopbackWebhooks?: boolean;
  /** Success status of creating upserts (users, jobs) and decisions; spec leaves it open. Default 200. */
  createdStatus?: 200 | 201 | 202;
  /** Seed of the synthetic candidate pool. */
  seed?: number;
  /** Log sink (one line per event); default silent. */
  log?: (line: string) => void;
  /** An embedder's observer and injection points (a recorder of a partner's traffic, for instance). */
  hooks?: SandboxHooks;
}

/** What `serve --provision FILE` writes; other tools read these keys. */
export interface Provision {
  base_url: string;
  partner_key: string;
  webhook_secret: string;
  activation_codes: string[];
  expired_code: string;
  disabled_org_token: string;
  disabled_partner_key: string;
}

export interface ProvisionOptions {
  /** Registers this webhook URL for the provisioned partner. */
  webhookUrl?: string;
  /** Number of unused activation codes (default 6, at least 4). */
  codes?: number;
  rateLimitPerMinute?: number;
}

export interface RunningSandbox {
  /** Ends in /v1. */
  baseUrl: string;
  provision(opts?: ProvisionOptions): Provision;
  /** Typed operator API (partners, codes, webhooks, enable/disable, rotation, wallets, limits). */
  operator: Operator;
  close(): Promise<void>;
}

export type { VariantDefinition } from './variants/index.js';
export { startSandbox, listFaults, listVariants } from './server.js';
