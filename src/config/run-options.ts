// Every option of `svc-certify run`, declared once: main.ts generates the commander options from this
// table and load-config.ts resolves each entry (flag > environment variable > svc-certify.config.json
// key > default) and validates it with the entry's validator. The config file accepts exactly these
// keys. Order: the order of `run --help`. The tables are `as const` so that each entry keeps its
// validator's return type: loadConfig's values are typed from here.

import { ENVIRONMENTS } from './config.js';
import type { OptionSpec, Requirement } from './option-spec.js';
import {
  oneOf,
  positiveNumber,
  exploreCount,
  requestsPerMinute,
  seedOption,
  secretValidator,
  validateBaseUrl,
  validateCode,
  validateHttpUrl,
  validateListen,
  wholeCredits,
  validateSecretText,
} from './validators.js';
import { DEFAULT_REPORTERS } from './reporter-names.js';
import { ORG_TOKEN, PARTNER_KEY } from '../secret-shapes.js';

const partnerKey = secretValidator(PARTNER_KEY);
const orgToken = secretValidator(ORG_TOKEN);

/** The embedded sandbox (no --base-url) provisions its own credentials and receiver: these would be ignored. */
const target = (why: string): Requirement => ({ key: 'baseUrl', why });
const OWN_CREDENTIALS = target('the embedded sandbox provisions its own key, tokens and codes');
const OWN_RECEIVER = target('the embedded sandbox runs its own webhook receiver on loopback');

/** The report options every certifying command shares (run, partner, receiver, scan, report). */
export const REPORT_OPTIONS = [
  {
    key: 'reportDir',
    flag: '--report-dir',
    arg: '<dir>',
    kind: 'string',
    description: 'where reports go, default reports/',
  },
  // Validated as a whole (duplicates, an empty list) by reporterNamesOf, the registry's one check.
  {
    key: 'reporter',
    flag: '--reporter',
    arg: '<list>',
    kind: 'list',
    description: `${DEFAULT_REPORTERS.join(',')} (default all), or sarif; NAME:- writes that report to stdout (the console moves to stderr)`,
  },
  {
    key: 'strict',
    flag: '--strict',
    kind: 'boolean',
    description: 'warnings and incomplete runs (skips for a missing input) count as failures',
  },
  {
    key: 'quiet',
    flag: '--quiet',
    kind: 'boolean',
    description: 'console: only failures, warnings, the verdict and the report paths',
  },
  {
    key: 'baseline',
    flag: '--baseline',
    arg: '<file>',
    kind: 'string',
    description: 'known failures accepted until a date; stale or expired entries fail the run',
  },
  // Read and checked with the other options (src/report/sign-key.ts): a bad key is exit 2 before anything is spent.
  {
    key: 'signKey',
    flag: '--sign-key',
    arg: '<file>',
    kind: 'string',
    description:
      'Ed25519 private key (PEM): also write certification.intoto.json, a signed record `svc-certify verify` checks',
  },
] as const satisfies readonly OptionSpec[];

/** The webhook signing secret: run's (needs a target of its own) and receiver's (required). */
export const WEBHOOK_SECRET_OPTION = {
  key: 'webhookSecret',
  flag: '--webhook-secret',
  arg: '<secret>',
  kind: 'string',
  secret: true,
  validate: validateSecretText,
  description: 'webhook signing secret (8 characters or more)',
} as const satisfies OptionSpec;

export const RUN_OPTIONS = [
  {
    key: 'baseUrl',
    flag: '--base-url',
    arg: '<url>',
    kind: 'string',
    validate: validateBaseUrl,
    description: 'target ending in /v1; omitted: the embedded sandbox (in CI only with --embedded)',
  },
  // In CI (CI set) a missing target is a usage error, so that a job whose target secret is empty
  // cannot pass on the reference sandbox: this switch asks for the sandbox explicitly.
  {
    key: 'embedded',
    flag: '--embedded',
    kind: 'boolean',
    description: 'certify the embedded reference sandbox (needed in CI, where a missing --base-url is an error)',
  },
  {
    key: 'partnerKey',
    flag: '--partner-key',
    arg: '<key>',
    kind: 'string',
    secret: true,
    validate: partnerKey,
    requires: OWN_CREDENTIALS,
    description: 'partner key spk_live_…',
  },
  {
    key: 'orgToken',
    flag: '--org-token',
    arg: '<token>',
    kind: 'string',
    secret: true,
    validate: orgToken,
    requires: OWN_CREDENTIALS,
    description: 'an organization already connected, sot_…',
  },
  {
    key: 'activationCode',
    flag: '--activation-code',
    arg: '<code>',
    env: 'SVC_ACTIVATION_CODES',
    kind: 'list',
    repeatable: true,
    validate: validateCode,
    requires: OWN_CREDENTIALS,
    description:
      'an unused activation code, repeatable; 3 run every check (2 with --org-token), --exhaust-limits takes one more',
  },
  // Run once for each code the plan needs (activation-code-command.ts), before the certification starts.
  {
    key: 'activationCodeCommand',
    flag: '--activation-code-command',
    arg: '<cmd>',
    kind: 'string',
    requires: OWN_CREDENTIALS,
    description:
      'a shell command that prints one unused activation code on its first line, run once for each code the certification needs (an unattended certification)',
  },
  {
    key: 'expiredCode',
    flag: '--expired-code',
    arg: '<code>',
    kind: 'string',
    validate: validateCode,
    requires: OWN_CREDENTIALS,
    description: 'an expired activation code',
  },
  {
    key: 'disabledOrgToken',
    flag: '--disabled-org-token',
    arg: '<token>',
    kind: 'string',
    secret: true,
    validate: orgToken,
    requires: OWN_CREDENTIALS,
    description: 'org token of a disabled organization',
  },
  {
    key: 'disabledPartnerKey',
    flag: '--disabled-partner-key',
    arg: '<key>',
    kind: 'string',
    secret: true,
    validate: partnerKey,
    requires: OWN_CREDENTIALS,
    description: 'key of a disabled partner',
  },
  {
    key: 'otherPartnerKey',
    flag: '--other-partner-key',
    arg: '<key>',
    kind: 'string',
    secret: true,
    validate: partnerKey,
    requires: OWN_CREDENTIALS,
    description: "key of a second, enabled partner: it must not reach the first partner's organizations",
  },
  { ...WEBHOOK_SECRET_OPTION, requires: OWN_RECEIVER },
  {
    key: 'webhookListen',
    flag: '--webhook-listen',
    arg: '<host:port>',
    kind: 'string',
    validate: validateListen,
    requires: OWN_RECEIVER,
    description: 'where the temporary receiver listens',
  },
  {
    key: 'webhookPublicUrl',
    flag: '--webhook-public-url',
    arg: '<url>',
    kind: 'string',
    validate: validateHttpUrl,
    requires: OWN_RECEIVER,
    description: 'the registered URL that reaches the receiver',
  },
  // Read (and the pair checked) by load-config.ts: the files are resolved against the working directory.
  {
    key: 'webhookTlsCert',
    flag: '--webhook-tls-cert',
    arg: '<file>',
    kind: 'string',
    requires: OWN_RECEIVER,
    description: 'serve the receiver over TLS: certificate (PEM)',
  },
  {
    key: 'webhookTlsKey',
    flag: '--webhook-tls-key',
    arg: '<file>',
    kind: 'string',
    requires: OWN_RECEIVER,
    description: 'serve the receiver over TLS: private key (PEM)',
  },
  {
    key: 'environment',
    flag: '--environment',
    arg: '<env>',
    kind: 'string',
    validate: oneOf(ENVIRONMENTS),
    description: 'sandbox, production or auto (judged from the behaviour and x-svc-environment)',
  },
  {
    key: 'maxSpendCredits',
    flag: '--max-spend-credits',
    arg: '<n>',
    kind: 'string',
    validate: wholeCredits,
    description: 'production: credits reveals may spend, default 0',
  },
  {
    key: 'timeScale',
    flag: '--time-scale',
    arg: '<n>',
    kind: 'string',
    validate: positiveNumber,
    description: "divide the spec's waiting times by n; default 1, 60 for the embedded sandbox",
  },
  {
    key: 'rateLimit',
    flag: '--rate-limit',
    arg: '<n>',
    kind: 'string',
    validate: requestsPerMinute,
    description: 'requests per minute the partner may send, default 120',
  },
  // Validated against the suites of the registry by load-config.ts.
  {
    key: 'suite',
    flag: '--suite',
    arg: '<name>',
    kind: 'list',
    repeatable: true,
    description: 'run only this suite, repeatable or comma-separated (see: svc-certify list)',
  },
  {
    key: 'grep',
    flag: '--grep',
    arg: '<text>',
    kind: 'string',
    description: 'run only checks whose id or title contains the text',
  },
  // The conflicts with the options that spend (codes, limits) are checked by load-config.ts.
  {
    key: 'gate',
    flag: '--gate',
    kind: 'boolean',
    description:
      'the gate profile for every deployment: no activation code (--org-token is enough), no exhausted limit, no real run followed; passes as "passed, not a certification" and lists what only a certification covers',
  },
  {
    key: 'exhaustLimits',
    flag: '--exhaust-limits',
    kind: 'boolean',
    description: 'also use up the rate limit and the daily sandbox run quota',
  },
  {
    key: 'watchRetries',
    flag: '--watch-retries',
    kind: 'boolean',
    description: "also watch a failing webhook's whole retry schedule (about 8 h of spec time: 8 min at time scale 60)",
  },
  {
    key: 'explore',
    flag: '--explore',
    arg: '<n>',
    kind: 'string',
    validate: exploreCount,
    description:
      "requests the generative exploration may send (schema-driven, never a real run, only on rate budget the other checks leave unused, ending when the other checks end); default what the rate budget of the catalogue's critical path leaves (72 at 120 a minute, none at 101 or less, 300 from 184 a minute), a fixed sweep of every field first, then seeded cases; at most 10000 (decimal digits only); 0 turns it off",
  },
  {
    key: 'seed',
    flag: '--seed',
    arg: '<n|random>',
    kind: 'string',
    validate: seedOption,
    description:
      "the exploration's seed, 0 to 2147483647, or random for one drawn now (default: 1, fixed, so the same build sends the same requests); printed in every report",
  },
  {
    key: 'userRole',
    flag: '--user-role',
    arg: '<role>',
    kind: 'string',
    description: 'the role sent when registering recruiters (allowed values: not shown in the spec)',
  },
  {
    key: 'webhookNotRegistered',
    flag: '--webhook-not-registered',
    kind: 'boolean',
    requires: target('the embedded sandbox always registers its receiver'),
    description: 'no webhook URL is registered for the partner: check 409 webhook_not_configured',
  },
  {
    key: 'realNamesEnabled',
    flag: '--real-names-enabled',
    kind: 'boolean',
    description:
      'the operator enabled real candidate names in the sandbox (data-processing agreement): names are not judged as masked; contact identifiers still are',
  },
  ...REPORT_OPTIONS,
] as const satisfies readonly OptionSpec[];
