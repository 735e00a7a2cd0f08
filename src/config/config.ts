// The one typed configuration of `svc-certify run`, resolved once from flags, environment and
// svc-certify.config.json (in that precedence) and validated at load.

import type { ReporterToken } from './reporter-names.js';

export const ENVIRONMENTS = ['sandbox', 'production', 'auto'] as const;
type EnvironmentChoice = (typeof ENVIRONMENTS)[number];

export interface ListenAddress {
  host: string;
  port: number;
}

export interface Config {
  /** Target ending in /v1; undefined = certify the embedded sandbox. */
  baseUrl?: string;
  partnerKey?: string;
  orgToken?: string;
  /** Normalized `SVC-XXXX-XXXX`, in the order given. */
  activationCodes: string[];
  expiredCode?: string;
  disabledOrgToken?: string;
  disabledPartnerKey?: string;
  /** A second, enabled partner's key (partner isolation). */
  otherPartnerKey?: string;
  webhookSecret?: string;
  webhookListen?: ListenAddress;
  webhookPublicUrl?: string;
  /** PEM contents read at load (unreadable files are a ConfigError). */
  webhookTls?: { certFile: string; keyFile: string; cert: string; key: string };
  environment: EnvironmentChoice;
  maxSpendCredits: number;
  /** The spec's waiting times are divided by this. */
  timeScale: number;
  /** Requests per minute the partner may send. */
  rateLimit: number;
  reportDir: string;
  reporters: ReporterToken[];
  /** Selected suites (empty = all). */
  suites: string[];
  grep?: string;
  strict: boolean;
  /** --quiet: the console prints failures, warnings, the verdict and the report paths only. */
  quiet?: boolean;
  /** --baseline FILE (SVC_BASELINE) as written, and resolved against the working directory. */
  baselineFile?: string;
  baselinePath?: string;
  /** --sign-key FILE (SVC_SIGN_KEY) as written, and resolved: the key signing certification.intoto.json. */
  signKeyFile?: string;
  signKeyPath?: string;
  exhaustLimits: boolean;
  /** --gate: the gate profile (api-setup/gate-profile.ts): spends no code, exhausts no limit, follows no real run. */
  gate?: boolean;
  /** --activation-code-command: run once per code the certification needs; its codes join activationCodes. */
  activationCodeCommand?: string;
  /** --user-role: the `role` sent when registering recruiters (the spec's allowed values: not shown). */
  userRole?: string;
  /** The user states no webhook URL is registered for the partner (enables the 409 webhook_not_configured check). */
  noWebhookRegistered?: boolean;
  /**
   * --real-names-enabled: the service operator enabled real candidate names in the sandbox for the partner
   * (after a data-processing agreement), so names are not judged as masked; contact identifiers still are.
   */
  realNamesEnabled?: boolean;
  /** --watch-retries: the opt-in check of the whole webhook retry schedule runs. */
  watchRetries?: boolean;
  /** --explore: at most this many generated requests (0: the exploration is off). */
  explore: number;
  /** --seed, DEFAULT_SEED when none is given, or drawn at load for `--seed random` (printed in every report). */
  seed: number;
  /** Whether the seed was drawn rather than given (the console then says how to replay it). */
  seedDrawn?: boolean;
}
