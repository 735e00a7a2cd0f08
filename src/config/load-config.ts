// Resolves the Config of `svc-certify run`: flag > environment variable > svc-certify.config.json
// > default. Every value is validated here, once, so nothing downstream re-checks input.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, errnoOf, messageOf } from './config-error.js';
import type { Config } from './config.js';
import type { Sourced } from './option-spec.js';
import { resolveOptions } from './resolve-options.js';
import { RUN_OPTIONS } from './run-options.js';
import { reporterNamesOf, DEFAULT_REPORTERS } from './reporter-names.js';
import { DEFAULT_SEED, defaultExploreRequests, drawSeed } from './explore-defaults.js';
import { isCiEnvironment } from './ci-env.js';

const CONFIG_FILE_NAME = 'svc-certify.config.json';

type RunKey = (typeof RUN_OPTIONS)[number]['key'];

/**
 * The gate's exploration, unless --explore says otherwise: a few generated requests per endpoint, with
 * the same default seed. The gate's 90 s at 120 requests a minute hold two windows of the pacer's
 * budget, which its checks nearly fill; a full certification's 200 would add a third.
 */
const GATE_EXPLORE_REQUESTS = 24;

export interface LoadConfigInput {
  /** Parsed flags keyed by RUN_OPTIONS keys; undefined = not given. */
  flags: Record<string, unknown>;
  env?: Record<string, string | undefined>;
  /** Where svc-certify.config.json is looked up and relative paths resolve (default process.cwd()). */
  cwd?: string;
  /** Suite names a --suite may select. */
  knownSuites: readonly string[];
}

export function loadConfig(input: LoadConfigInput): Config {
  const cwd = input.cwd ?? process.cwd();
  const file = readConfigFile(cwd);
  const options = resolveOptions(RUN_OPTIONS, {
    flags: input.flags,
    env: input.env ?? process.env,
    ...(file ? { file: { values: file, sourceOf: (key: string) => `${CONFIG_FILE_NAME} key "${key}"` } } : {}),
  });
  const get = options.get;
  /** A value with where it was given, for the checks that span two options or the registry. */
  const sourced = <T>(value: T | undefined, source: string | undefined): Sourced<T> | undefined =>
    value === undefined || source === undefined ? undefined : { value, source };

  const baseUrl = get('baseUrl');
  const partnerKey = get('partnerKey');
  checkTargetChoice(baseUrl !== undefined, get('embedded') === true, isCiEnvironment(input.env ?? process.env));
  if (baseUrl !== undefined && partnerKey === undefined) {
    throw new ConfigError(
      '--base-url is set but no partner key is given: add --partner-key KEY or set SVC_PARTNER_KEY (or leave out --base-url to certify the embedded sandbox)',
    );
  }

  const webhookTls = loadTls(
    sourced(get('webhookTlsCert'), options.source('webhookTlsCert')),
    sourced(get('webhookTlsKey'), options.source('webhookTlsKey')),
    cwd,
  );
  const reporterList = sourced(get('reporter'), options.source('reporter'));
  const reporters = reporterList ? reporterNamesOf(reporterList.value, reporterList.source) : [...DEFAULT_REPORTERS];
  const suiteList = sourced(get('suite'), options.source('suite'));
  const suites = suiteList ? validateSuites(suiteList, input.knownSuites) : [];
  const baseline = get('baseline');
  const signKey = get('signKey');
  const rateLimit = get('rateLimit') ?? 120;
  const seed = get('seed');
  const gate = get('gate') ?? false;
  if (gate) checkGateOptions(options.source, baseUrl !== undefined && get('orgToken') === undefined);
  const activationCodeCommand = get('activationCodeCommand');

  return {
    baseUrl,
    partnerKey,
    orgToken: get('orgToken'),
    activationCodes: get('activationCode') ?? [],
    expiredCode: get('expiredCode'),
    disabledOrgToken: get('disabledOrgToken'),
    disabledPartnerKey: get('disabledPartnerKey'),
    otherPartnerKey: get('otherPartnerKey'),
    webhookSecret: get('webhookSecret'),
    webhookListen: get('webhookListen'),
    webhookPublicUrl: get('webhookPublicUrl'),
    webhookTls,
    environment: get('environment') ?? 'auto',
    maxSpendCredits: get('maxSpendCredits') ?? 0,
    // The embedded sandbox runs accelerated so that `npx svc-certify run` takes seconds.
    timeScale: get('timeScale') ?? (baseUrl === undefined ? 60 : 1),
    rateLimit,
    reportDir: resolve(cwd, get('reportDir') ?? 'reports'),
    reporters,
    suites,
    grep: get('grep'),
    strict: get('strict') ?? false,
    quiet: get('quiet') ?? false,
    ...(baseline !== undefined ? { baselineFile: baseline, baselinePath: resolve(cwd, baseline) } : {}),
    ...(signKey !== undefined ? { signKeyFile: signKey, signKeyPath: resolve(cwd, signKey) } : {}),
    exhaustLimits: get('exhaustLimits') ?? false,
    ...(gate ? { gate } : {}),
    ...(activationCodeCommand !== undefined ? { activationCodeCommand } : {}),
    noWebhookRegistered: get('webhookNotRegistered') ?? false,
    realNamesEnabled: get('realNamesEnabled') ?? false,
    watchRetries: get('watchRetries') ?? false,
    userRole: get('userRole'),
    explore: get('explore') ?? (gate ? GATE_EXPLORE_REQUESTS : defaultExploreRequests(rateLimit)),
    ...(seed === 'random' ? { seed: drawSeed(), seedDrawn: true } : { seed: seed ?? DEFAULT_SEED }),
  };
}

/**
 * A target, or the embedded sandbox asked for: in CI nothing is certified implicitly, since a job whose
 * target variable came out empty (a secret missing in a fork, a typo) would otherwise pass on the
 * reference sandbox without having looked at the deployment. Outside CI the quick start stays flagless.
 */
function checkTargetChoice(hasTarget: boolean, embedded: boolean, ci: boolean): void {
  if (hasTarget && embedded) {
    throw new ConfigError(
      '--embedded (SVC_EMBEDDED) and --base-url (SVC_BASE_URL) exclude each other: give the target, or --embedded to certify the reference sandbox',
    );
  }
  if (!hasTarget && !embedded && ci) {
    throw new ConfigError(
      'no target in CI: set SVC_BASE_URL (or --base-url) to the deployment to certify; to certify the reference sandbox give --embedded',
    );
  }
}

/**
 * The gate spends nothing scarce: an option that would spend (codes, limits) or watch for hours has no
 * effect in it, which is a usage error rather than silently ignored; and without a code, a real target
 * needs the organization of --org-token.
 */
function checkGateOptions(sourceOf: (key: RunKey) => string | undefined, needsOrgToken: boolean): void {
  const spending: Array<[RunKey, string]> = [
    ['activationCode', 'the gate spends no activation code'],
    ['activationCodeCommand', 'the gate spends no activation code'],
    ['exhaustLimits', 'the gate never exhausts a limit'],
    ['watchRetries', 'the gate watches no retry schedule of hours'],
  ];
  const gateSource = sourceOf('gate') ?? '--gate';
  for (const [key, why] of spending) {
    const source = sourceOf(key);
    if (source !== undefined)
      throw new ConfigError(
        `${source} has no effect with ${gateSource}: ${why}; leave one of them out (a full certification takes ${source})`,
      );
  }
  if (needsOrgToken)
    throw new ConfigError(
      `${gateSource} needs the organization of --org-token (or SVC_ORG_TOKEN): the gate spends no activation code; redeem one once and keep its token for every gate`,
    );
}

function readConfigFile(cwd: string): Record<string, unknown> | undefined {
  const path = resolve(cwd, CONFIG_FILE_NAME);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if (errnoOf(e) === 'ENOENT') return undefined;
    throw new ConfigError(`cannot read ${path}: ${messageOf(e)}; fix its permissions or remove it`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`${path} is not valid JSON (${messageOf(e)}); fix it or remove it`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError(`${path} must hold a JSON object of run options, e.g. {"baseUrl": "https://…/v1"}`);
  }
  const known = new Set<string>(RUN_OPTIONS.map((o) => o.key));
  const unknown = Object.keys(parsed).filter((k) => !known.has(k));
  if (unknown.length > 0) {
    throw new ConfigError(
      `${CONFIG_FILE_NAME} has unknown key${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')}; allowed keys: ${[...known].join(', ')}`,
    );
  }
  // Numbers are accepted as written in JSON and validated with the rest (resolve-options.ts).
  return { ...parsed };
}

function loadTls(
  cert: Sourced<string> | undefined,
  key: Sourced<string> | undefined,
  cwd: string,
): Config['webhookTls'] {
  if (!cert || !key) {
    if (cert) throw new ConfigError('--webhook-tls-cert is given without --webhook-tls-key: give both, or neither');
    if (key) throw new ConfigError('--webhook-tls-key is given without --webhook-tls-cert: give both, or neither');
    return undefined;
  }
  const read = (s: Sourced<string>): string => {
    try {
      return readFileSync(resolve(cwd, s.value), 'utf8');
    } catch (e) {
      throw new ConfigError(
        `${s.source}: cannot read "${s.value}" (${errnoOf(e) ?? messageOf(e)}); give a readable PEM file`,
      );
    }
  };
  return { certFile: cert.value, keyFile: key.value, cert: read(cert), key: read(key) };
}

function validateSuites(s: Sourced<string[]>, known: readonly string[]): string[] {
  for (const name of s.value) {
    if (!known.includes(name)) {
      throw new ConfigError(
        `${s.source}: unknown suite "${name}"; choose from ${known.join(', ')} (see: svc-certify list)`,
      );
    }
  }
  return [...new Set(s.value)];
}
