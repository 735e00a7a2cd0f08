// Resolves the Config of `svc-certify run`: flag > environment variable > svc-certify.config.json
// > default. Every value is validated here, once, so nothing downstream re-checks input.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from './config-error.js';
import type { Config, EnvironmentChoice, ListenAddress } from './config.js';
import type { OptionSpec, Sourced } from './option-spec.js';
import { RUN_OPTIONS } from './run-options.js';
import { reporterNamesOf, DEFAULT_REPORTERS } from './reporter-names.js';

const CONFIG_FILE_NAME = 'svc-certify.config.json';

export interface LoadConfigInput {
  /** Parsed flags keyed by RUN_OPTIONS keys; undefined = not given. */
  flags: Record<string, unknown>;
  env?: Record<string, string | undefined>;
  /** Where svc-certify.config.json is looked up and relative paths resolve (default process.cwd()). */
  cwd?: string;
  /** Suite names a --suite may select. */
  knownSuites: readonly string[];
}

type RawValue = string | string[] | boolean;

export function loadConfig(input: LoadConfigInput): Config {
  const cwd = input.cwd ?? process.cwd();
  const env = input.env ?? process.env;
  const file = readConfigFile(cwd);

  const pick = (spec: OptionSpec): Sourced<RawValue> | undefined => {
    const flag = input.flags[spec.key];
    if (flag !== undefined && !(Array.isArray(flag) && flag.length === 0)) return { value: coerceFlag(flag), source: spec.flag };
    const fromEnv = spec.env ? env[spec.env] : undefined;
    if (spec.env && fromEnv !== undefined && fromEnv !== '') return { value: fromEnv, source: spec.env };
    if (file && spec.key in file) return { value: file[spec.key], source: `${CONFIG_FILE_NAME} key "${spec.key}"` };
    return undefined;
  };
  const get = (key: string): Sourced<RawValue> | undefined => pick(specOf(key));

  const str = (key: string): Sourced<string> | undefined => {
    const v = get(key);
    if (!v) return undefined;
    if (typeof v.value !== 'string') throw new ConfigError(`${v.source} must be a string`);
    const trimmed = v.value.trim();
    if (trimmed === '') throw new ConfigError(`${v.source} is empty; give a value or leave it out`);
    return { value: trimmed, source: v.source };
  };
  const list = (key: string): Sourced<string[]> | undefined => {
    const v = get(key);
    if (!v) return undefined;
    const items = (Array.isArray(v.value) ? v.value : typeof v.value === 'string' ? [v.value] : undefined);
    if (!items || items.some((i) => typeof i !== 'string')) throw new ConfigError(`${v.source} must be a string or a list of strings`);
    return { value: items.flatMap((i) => i.split(',')).map((i) => i.trim()).filter((i) => i !== ''), source: v.source };
  };
  const bool = (key: string): boolean => {
    const v = get(key);
    if (!v) return false;
    // A switch's environment variable is text: "true"/"1" or "false"/"0".
    if (typeof v.value === 'string' && v.source === specOf(key).env) {
      const text = v.value.trim().toLowerCase();
      if (text === 'true' || text === '1') return true;
      if (text === 'false' || text === '0') return false;
      throw new ConfigError(`${v.source} must be true, false, 1 or 0`);
    }
    if (typeof v.value !== 'boolean') throw new ConfigError(`${v.source} must be true or false`);
    return v.value;
  };

  /** The entry's validator applied to the value (each item of a list); undefined when not given. */
  const valid = <T>(key: string): T | undefined => {
    const spec = specOf(key);
    const v = spec.kind === 'list' ? list(key) : str(key);
    if (!v || !spec.validate) return v?.value as T | undefined;
    const validate = spec.validate;
    if (Array.isArray(v.value)) return v.value.map((item) => validate({ value: item, source: v.source })) as T;
    return validate(v as Sourced<string>) as T;
  };

  const baseUrl = valid<string>('baseUrl');
  const partnerKey = valid<string>('partnerKey');
  const orgToken = valid<string>('orgToken');
  const disabledOrgToken = valid<string>('disabledOrgToken');
  const disabledPartnerKey = valid<string>('disabledPartnerKey');
  const webhookSecret = valid<string>('webhookSecret');

  if (baseUrl !== undefined && partnerKey === undefined) {
    throw new ConfigError(
      '--base-url is set but no partner key is given: add --partner-key KEY or set SVC_PARTNER_KEY (or leave out --base-url to certify the embedded sandbox)',
    );
  }

  const activationCodes = valid<string[]>('activationCode') ?? [];
  const expiredCode = valid<string>('expiredCode');

  const webhookListen = valid<ListenAddress>('webhookListen');
  const webhookPublicUrl = valid<string>('webhookPublicUrl');
  const webhookTls = loadTls(str('webhookTlsCert'), str('webhookTlsKey'), cwd);

  const environment = valid<EnvironmentChoice>('environment');
  const timeScale = valid<number>('timeScale');
  const rateLimit = valid<number>('rateLimit');
  const maxSpendCredits = valid<number>('maxSpendCredits');

  const reporterList = list('reporter');
  const reporters = reporterList ? reporterNamesOf(reporterList.value, reporterList.source) : [...DEFAULT_REPORTERS];

  const suiteList = list('suite');
  const suites = suiteList ? validateSuites(suiteList, input.knownSuites) : [];

  const reportDir = resolve(cwd, str('reportDir')?.value ?? 'reports');
  const baseline = str('baseline')?.value;

  return {
    baseUrl,
    partnerKey,
    orgToken,
    activationCodes,
    expiredCode,
    disabledOrgToken,
    disabledPartnerKey,
    webhookSecret,
    webhookListen,
    webhookPublicUrl,
    webhookTls,
    environment: environment ?? 'auto',
    maxSpendCredits: maxSpendCredits ?? 0,
    // The embedded sandbox runs accelerated so that `npx svc-certify run` takes seconds.
    timeScale: timeScale ?? (baseUrl === undefined ? 60 : 1),
    rateLimit: rateLimit ?? 120,
    reportDir,
    reporters,
    suites,
    grep: valid<string>('grep'),
    strict: bool('strict'),
    quiet: bool('quiet'),
    ...(baseline !== undefined ? { baselineFile: baseline, baselinePath: resolve(cwd, baseline) } : {}),
    exhaustLimits: bool('exhaustLimits'),
    noWebhookRegistered: bool('webhookNotRegistered'),
    realNamesEnabled: bool('realNamesEnabled'),
    userRole: valid<string>('userRole'),
  };
}

function coerceFlag(v: unknown): RawValue {
  if (typeof v === 'boolean' || typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map(String);
  return String(v);
}

function readConfigFile(cwd: string): Record<string, RawValue> | undefined {
  const path = resolve(cwd, CONFIG_FILE_NAME);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError(`cannot read ${path}: ${(e as Error).message}; fix its permissions or remove it`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`${path} is not valid JSON (${(e as Error).message}); fix it or remove it`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError(`${path} must hold a JSON object of run options, e.g. {"baseUrl": "https://…/v1"}`);
  }
  const known = new Set(RUN_OPTIONS.map((o) => o.key));
  const unknown = Object.keys(parsed).filter((k) => !known.has(k));
  if (unknown.length > 0) {
    throw new ConfigError(
      `${CONFIG_FILE_NAME} has unknown key${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')}; allowed keys: ${[...known].join(', ')}`,
    );
  }
  const out: Record<string, RawValue> = {};
  for (const [k, v] of Object.entries(parsed as Record<string, unknown>)) {
    if (v === null || v === undefined) continue;
    // Numbers are accepted as written in JSON and validated with the rest.
    out[k] = typeof v === 'number' ? String(v) : (v as RawValue);
  }
  return out;
}

function loadTls(
  cert: Sourced<string> | undefined,
  key: Sourced<string> | undefined,
  cwd: string,
): Config['webhookTls'] {
  if (!cert && !key) return undefined;
  if (cert && !key) throw new ConfigError('--webhook-tls-cert is given without --webhook-tls-key: give both, or neither');
  if (key && !cert) throw new ConfigError('--webhook-tls-key is given without --webhook-tls-cert: give both, or neither');
  const read = (s: Sourced<string>): string => {
    try {
      return readFileSync(resolve(cwd, s.value), 'utf8');
    } catch (e) {
      throw new ConfigError(`${s.source}: cannot read "${s.value}" (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); give a readable PEM file`);
    }
  };
  return { certFile: cert!.value, keyFile: key!.value, cert: read(cert!), key: read(key!) };
}

function validateSuites(s: Sourced<string[]>, known: readonly string[]): string[] {
  for (const name of s.value) {
    if (!known.includes(name)) {
      throw new ConfigError(`${s.source}: unknown suite "${name}"; choose from ${known.join(', ')} (see: svc-certify list)`);
    }
  }
  return [...new Set(s.value)];
}

function specOf(key: string): OptionSpec {
  const spec = RUN_OPTIONS.find((o) => o.key === key);
  if (!spec) throw new Error(`no run option "${key}" in RUN_OPTIONS`);
  return spec;
}
