// The options of the two commands that run the reference sandbox (`serve` and `partner`), declared
// once with their validation; each command adds its own few and may word a shared one for itself.

import { errnoOrMessage } from '../narrow.js';
import { writeFileSync } from 'node:fs';
import { validateDuration } from '../config/duration.js';
import type { OptionSpec } from '../config/option-spec.js';
import type { SandboxSettings } from '../config/sandbox-settings.js';
import { resolveOptions, type Env } from '../config/resolve-options.js';
import {
  oneOf,
  portNumber,
  positiveNumber,
  requestsPerMinute,
  validateHttpUrlAsWritten,
} from '../config/validators.js';
import { UsageError } from './usage-error.js';

const MODES = ['sandbox', 'production'] as const;

const SANDBOX_OPTIONS = [
  {
    key: 'host',
    flag: '--host',
    arg: '<host>',
    kind: 'string',
    default: '127.0.0.1',
    description: 'interface to listen on',
  },
  {
    key: 'port',
    flag: '--port',
    arg: '<n>',
    // SVC_PORT is what Kubernetes sets (tcp://…) for a Service named `svc`: renamed, read for one release.
    env: 'SVC_PORT_NUMBER',
    formerEnv: 'SVC_PORT',
    kind: 'string',
    default: '0',
    validate: portNumber,
    description: 'port (0: any free port)',
  },
  {
    key: 'mode',
    flag: '--mode',
    arg: '<mode>',
    kind: 'string',
    default: 'sandbox',
    validate: oneOf(MODES),
    description: 'sandbox or production',
  },
  {
    key: 'timeScale',
    flag: '--time-scale',
    arg: '<n>',
    kind: 'string',
    default: '1',
    validate: positiveNumber,
    description: "divide the spec's durations by n",
  },
  {
    key: 'rateLimit',
    flag: '--rate-limit',
    arg: '<n>',
    kind: 'string',
    default: '120',
    validate: requestsPerMinute,
    description: 'requests per minute per partner',
  },
  {
    key: 'provision',
    flag: '--provision',
    arg: '<file>',
    kind: 'string',
    description: 'provision a partner and write its credentials as JSON here',
  },
  {
    key: 'webhookUrl',
    flag: '--webhook-url',
    arg: '<url>',
    kind: 'string',
    validate: validateHttpUrlAsWritten,
    description: 'register this webhook URL for the provisioned partner',
  },
  {
    key: 'allowLoopbackWebhooks',
    flag: '--allow-loopback-webhooks',
    kind: 'boolean',
    // The command line registers no webhook URL but --webhook-url's: the switch alone would change nothing.
    requires: {
      key: 'webhookUrl',
      why: 'the only webhook URL the sandbox delivers to is the one --webhook-url registers',
    },
    description: 'operator switch: allow http://127.0.0.1 webhook URLs',
  },
] as const satisfies readonly OptionSpec[];

const SERVE_ONLY_OPTIONS = [
  {
    key: 'fault',
    flag: '--fault',
    arg: '<id>',
    kind: 'list',
    repeatable: true,
    description: 'switch on a named fault (repeatable; see --list-faults)',
  },
  {
    key: 'listFaults',
    flag: '--list-faults',
    kind: 'boolean',
    description: 'print the faults the sandbox knows and exit',
  },
  {
    key: 'variant',
    flag: '--variant',
    arg: '<id>',
    kind: 'list',
    repeatable: true,
    description: 'switch on a conformant variant: a choice the spec leaves open (repeatable; see --list-variants)',
  },
  {
    key: 'listVariants',
    flag: '--list-variants',
    kind: 'boolean',
    description: 'print the conformant variants the sandbox knows and exit',
  },
] as const satisfies readonly OptionSpec[];

export const SERVE_OPTIONS = [...SANDBOX_OPTIONS, ...SERVE_ONLY_OPTIONS] as const;

/** `partner` words three shared options for itself: the judge uses the time scale, the files are the partner's. */
const PARTNER_WORDING: Partial<Record<string, string>> = {
  timeScale: "divide the spec's durations by n (the judge's too)",
  provision: "required: write the partner's credentials as JSON here",
  webhookUrl: "register the partner's webhook endpoint (judges its answers)",
};

export const PARTNER_OPTIONS = [
  ...SANDBOX_OPTIONS.map((o) => ({ ...o, description: PARTNER_WORDING[o.key] ?? o.description })),
  {
    key: 'duration',
    flag: '--duration',
    arg: '<time>',
    kind: 'string',
    validate: validateDuration,
    description: 'end after this long (e.g. 90s, 15m); default: until Ctrl-C / SIGTERM',
  },
  { key: 'inject', flag: '--no-inject', kind: 'boolean', description: 'do not inject the failures listed below' },
  {
    key: 'skipInjection',
    flag: '--skip-injection',
    arg: '<id>',
    kind: 'list',
    repeatable: true,
    description: 'do not inject this one of the failures listed below (repeatable)',
  },
] as const satisfies readonly OptionSpec[];

export type { SandboxSettings };

/** The shared options, resolved from flags and environment and validated before anything starts: a bad one exits 2 with one line. */
export function parseSandboxFlags(flags: Record<string, unknown>, env: Env = process.env): SandboxSettings {
  const o = resolveOptions(SANDBOX_OPTIONS, { flags, env });
  const webhookUrl = o.get('webhookUrl');
  return {
    host: o.get('host'),
    port: o.get('port'),
    mode: o.get('mode'),
    timeScale: o.get('timeScale'),
    rateLimit: o.get('rateLimit'),
    ...(webhookUrl !== undefined ? { webhookUrl } : {}),
    allowLoopbackWebhooks: o.get('allowLoopbackWebhooks') ?? false,
  };
}

/** Writes the provision (the partner key and webhook secret): readable by the owner only. */
export function writeProvisionFile(file: string, shownAs: string, provision: unknown): void {
  try {
    writeFileSync(file, `${JSON.stringify(provision, null, 2)}\n`, { mode: 0o600 });
  } catch (e) {
    throw new UsageError(`--provision: cannot write "${shownAs}" (${errnoOrMessage(e)})`);
  }
}
