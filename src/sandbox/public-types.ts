// The types of the sandbox's public entry, apart from it so that the modules implementing them
// (server, operator) never import the entry that re-exports them.

import type { SandboxHooks } from './hooks.js';
import type { Operator } from './operator.js';
import type { Provision, ProvisionOptions } from './provision-types.js';

export type { Provision } from './provision-types.js';

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
  /** Production mode: the credit balance a new organization's wallet starts with. Default 500. */
  initialWalletBalance?: number;
  /** Seed of the synthetic candidate pool. */
  seed?: number;
  /** Log sink (one line per event); default silent. */
  log?: (line: string) => void;
  /** An embedder's observer and injection points (a recorder of a partner's traffic, for instance). */
  hooks?: SandboxHooks;
  /**
   * Idle keep-alive connections are closed by the client only (default: the server closes them after
   * 10 s). An embedder whose client runs on another, busier thread sets it: the client's own idle timer
   * may fire seconds late and send on a connection the server has just closed (ECONNRESET).
   */
  clientClosesIdle?: boolean;
}

export interface RunningSandbox {
  /** Ends in /v1. */
  baseUrl: string;
  provision(opts?: ProvisionOptions): Provision;
  /** Typed operator API (partners, codes, webhooks, enable/disable, rotation, wallets, limits). */
  operator: Operator;
  close(): Promise<void>;
}
