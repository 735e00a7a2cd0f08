// The options of the two commands that run the reference sandbox (`serve` and `partner`), declared
// once with their validation; each command adds its own few and may word a shared one for itself.

import { writeFileSync } from 'node:fs';
import type { OptionSpec, Sourced } from '../config/option-spec.js';
import type { SandboxSettings } from '../config/sandbox-settings.js';
import { positiveNumber, requestsPerMinute } from '../config/validators.js';
import { UsageError } from './usage-error.js';
import { errnoOrMessage } from '../narrow.js';

export const SANDBOX_OPTIONS: readonly OptionSpec[] = [
  { key: 'host', flag: '--host', arg: '<host>', kind: 'string', default: '127.0.0.1', description: 'interface to listen on' },
  { key: 'port', flag: '--port', arg: '<n>', kind: 'string', default: '0', description: 'port (0: any free port)' },
  { key: 'mode', flag: '--mode', arg: '<mode>', kind: 'string', default: 'sandbox', description: 'sandbox or production' },
  { key: 'timeScale', flag: '--time-scale', arg: '<n>', kind: 'string', default: '1', description: "divide the spec's durations by n" },
  { key: 'rateLimit', flag: '--rate-limit', arg: '<n>', kind: 'string', default: '120', description: 'requests per minute per partner' },
  { key: 'provision', flag: '--provision', arg: '<file>', kind: 'string', description: 'provision a partner and write its credentials as JSON here' },
  { key: 'webhookUrl', flag: '--webhook-url', arg: '<url>', kind: 'string', description: 'register this webhook URL for the provisioned partner' },
  { key: 'allowLoopbackWebhooks', flag: '--allow-loopback-webhooks', kind: 'boolean', description: 'operator switch: allow http://127.0.0.1 webhook URLs' },
];

export const SERVE_ONLY_OPTIONS: readonly OptionSpec[] = [
  { key: 'fault', flag: '--fault', arg: '<id>', kind: 'list', repeatable: true, description: 'switch on a named fault (repeatable; see --list-faults)' },
  { key: 'listFaults', flag: '--list-faults', kind: 'boolean', description: 'print the faults the sandbox knows and exit' },
  {
    key: 'variant',
    flag: '--variant',
    arg: '<id>',
    kind: 'list',
    repeatable: true,
    description: 'switch on a conformant variant: a choice the spec leaves open (repeatable; see --list-variants)',
  },
  { key: 'listVariants', flag: '--list-variants', kind: 'boolean', description: 'print the conformant variants the sandbox knows and exit' },
];

/** `partner` words three shared options for itself: the judge uses the time scale, the files are the partner's. */
const PARTNER_WORDING: Record<string, string> = {
  timeScale: "divide the spec's durations by n (the judge's too)",
  provision: "required: write the partner's credentials as JSON here",
  webhookUrl: "register the partner's webhook endpoint (judges its answers)",
};

export const PARTNER_OPTIONS: readonly OptionSpec[] = [
  ...SANDBOX_OPTIONS.map((o) => (PARTNER_WORDING[o.key] ? { ...o, description: PARTNER_WORDING[o.key]! } : o)),
  { key: 'duration', flag: '--duration', arg: '<time>', kind: 'string', description: 'end after this long (e.g. 90s, 15m); default: until Ctrl-C / SIGTERM' },
  { key: 'inject', flag: '--no-inject', kind: 'boolean', description: 'do not inject the failures listed below' },
];

export interface SandboxFlags {
  host?: string;
  port?: string;
  mode?: string;
  timeScale?: string;
  rateLimit?: string;
  provision?: string;
  webhookUrl?: string;
  allowLoopbackWebhooks?: boolean;
}


/** Validates the shared options before anything starts: a bad one exits 2 with one line. */
export function parseSandboxFlags(flags: SandboxFlags): SandboxSettings {
  const port = flags.port === undefined ? 0 : Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a whole number from 0 to 65535 (got "${flags.port}")`);
  const mode = flags.mode ?? 'sandbox';
  if (mode !== 'sandbox' && mode !== 'production') throw new UsageError(`--mode must be sandbox or production (got "${mode}")`);
  const number = (value: string | undefined, flag: string, fallback: number, validate: (s: Sourced<string>) => number): number =>
    value === undefined ? fallback : validate({ value, source: flag });
  const timeScale = number(flags.timeScale, '--time-scale', 1, positiveNumber);
  const rateLimit = number(flags.rateLimit, '--rate-limit', 120, requestsPerMinute);
  if (flags.webhookUrl !== undefined && !isHttpUrl(flags.webhookUrl)) {
    throw new UsageError(`--webhook-url must be an absolute http(s) URL (got "${flags.webhookUrl}")`);
  }
  return {
    host: flags.host ?? '127.0.0.1',
    port,
    mode,
    timeScale,
    rateLimit,
    ...(flags.webhookUrl !== undefined ? { webhookUrl: flags.webhookUrl } : {}),
    allowLoopbackWebhooks: flags.allowLoopbackWebhooks ?? false,
  };
}

function isHttpUrl(text: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

/** Writes the provision (the partner key and webhook secret): readable by the owner only. */
export function writeProvisionFile(file: string, shownAs: string, provision: unknown): void {
  try {
    writeFileSync(file, `${JSON.stringify(provision, null, 2)}\n`, { mode: 0o600 });
  } catch (e) {
    throw new UsageError(`--provision: cannot write "${shownAs}" (${errnoOrMessage(e)})`);
  }
}
