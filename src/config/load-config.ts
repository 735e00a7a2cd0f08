// Resolves the Config of `svc-certify run`: flag > environment variable > svc-certify.config.json
// > default. Every value is validated here, once, so nothing downstream re-checks input.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { normalizeActivationCode } from './activation-code.js';
import { ConfigError } from './config-error.js';
import {
  ENVIRONMENTS,
  REPORTER_NAMES,
  type Config,
  type EnvironmentChoice,
  type ListenAddress,
  type ReporterName,
} from './config.js';
import { previewSecret } from './redact.js';

export const CONFIG_FILE_NAME = 'svc-certify.config.json';

type Kind = 'string' | 'list' | 'boolean';

interface OptionSpec {
  /** Key in the flags object (commander's camelCase) and in the config file. */
  key: string;
  flag: string;
  env?: string;
  kind: Kind;
  /** A secret is never echoed back in an error message. */
  secret?: boolean;
}

/** Every option of `run`; the config file accepts exactly these keys. */
export const RUN_OPTIONS: readonly OptionSpec[] = [
  { key: 'baseUrl', flag: '--base-url', env: 'SVC_BASE_URL', kind: 'string' },
  { key: 'partnerKey', flag: '--partner-key', env: 'SVC_PARTNER_KEY', kind: 'string', secret: true },
  { key: 'orgToken', flag: '--org-token', env: 'SVC_ORG_TOKEN', kind: 'string', secret: true },
  { key: 'activationCode', flag: '--activation-code', env: 'SVC_ACTIVATION_CODES', kind: 'list' },
  { key: 'expiredCode', flag: '--expired-code', env: 'SVC_EXPIRED_CODE', kind: 'string' },
  { key: 'disabledOrgToken', flag: '--disabled-org-token', env: 'SVC_DISABLED_ORG_TOKEN', kind: 'string', secret: true },
  {
    key: 'disabledPartnerKey',
    flag: '--disabled-partner-key',
    env: 'SVC_DISABLED_PARTNER_KEY',
    kind: 'string',
    secret: true,
  },
  { key: 'webhookSecret', flag: '--webhook-secret', env: 'SVC_WEBHOOK_SECRET', kind: 'string', secret: true },
  { key: 'webhookListen', flag: '--webhook-listen', env: 'SVC_WEBHOOK_LISTEN', kind: 'string' },
  { key: 'webhookPublicUrl', flag: '--webhook-public-url', env: 'SVC_WEBHOOK_PUBLIC_URL', kind: 'string' },
  { key: 'webhookTlsCert', flag: '--webhook-tls-cert', kind: 'string' },
  { key: 'webhookTlsKey', flag: '--webhook-tls-key', kind: 'string' },
  { key: 'environment', flag: '--environment', env: 'SVC_ENVIRONMENT', kind: 'string' },
  { key: 'maxSpendCredits', flag: '--max-spend-credits', env: 'SVC_MAX_SPEND_CREDITS', kind: 'string' },
  { key: 'timeScale', flag: '--time-scale', env: 'SVC_TIME_SCALE', kind: 'string' },
  { key: 'rateLimit', flag: '--rate-limit', env: 'SVC_RATE_LIMIT', kind: 'string' },
  { key: 'reportDir', flag: '--report-dir', env: 'SVC_REPORT_DIR', kind: 'string' },
  { key: 'reporter', flag: '--reporter', kind: 'list' },
  { key: 'suite', flag: '--suite', kind: 'list' },
  { key: 'grep', flag: '--grep', kind: 'string' },
  { key: 'strict', flag: '--strict', kind: 'boolean' },
  { key: 'baseline', flag: '--baseline', env: 'SVC_BASELINE', kind: 'string' },
  { key: 'exhaustLimits', flag: '--exhaust-limits', kind: 'boolean' },
  { key: 'webhookNotRegistered', flag: '--webhook-not-registered', kind: 'boolean' },
  { key: 'userRole', flag: '--user-role', env: 'SVC_USER_ROLE', kind: 'string' },
];

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

interface Sourced<T> {
  value: T;
  /** How the user wrote it: "--time-scale", "SVC_TIME_SCALE" or "svc-certify.config.json key \"timeScale\"". */
  source: string;
}

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
  const get = (key: string): Sourced<RawValue> | undefined => pick(RUN_OPTIONS.find((o) => o.key === key)!);

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
    if (typeof v.value !== 'boolean') throw new ConfigError(`${v.source} must be true or false`);
    return v.value;
  };

  const baseUrl = mapOpt(str('baseUrl'), validateBaseUrl);
  const partnerKey = mapOpt(str('partnerKey'), (s) => validateSecret(s, 'spk_live_', 'a partner key'));
  const orgToken = mapOpt(str('orgToken'), (s) => validateSecret(s, 'sot_', 'an org token'));
  const disabledOrgToken = mapOpt(str('disabledOrgToken'), (s) => validateSecret(s, 'sot_', 'an org token'));
  const disabledPartnerKey = mapOpt(str('disabledPartnerKey'), (s) => validateSecret(s, 'spk_live_', 'a partner key'));
  const webhookSecret = str('webhookSecret')?.value;

  if (baseUrl !== undefined && partnerKey === undefined) {
    throw new ConfigError(
      '--base-url is set but no partner key is given: add --partner-key KEY or set SVC_PARTNER_KEY (or leave out --base-url to certify the embedded sandbox)',
    );
  }

  const codes = list('activationCode');
  const activationCodes = (codes?.value ?? []).map((c) => validateCode(c, codes!.source));
  const expiredCode = mapOpt(str('expiredCode'), (s) => validateCode(s.value, s.source));

  const webhookListen = mapOpt(str('webhookListen'), validateListen);
  const webhookPublicUrl = mapOpt(str('webhookPublicUrl'), validateHttpUrl);
  const webhookTls = loadTls(str('webhookTlsCert'), str('webhookTlsKey'), cwd);

  const environment = mapOpt(str('environment'), (s) => {
    if (!(ENVIRONMENTS as readonly string[]).includes(s.value)) {
      throw new ConfigError(`${s.source} must be one of ${ENVIRONMENTS.join(', ')} (got "${s.value}")`);
    }
    return s.value as EnvironmentChoice;
  });

  const timeScale = mapOpt(get('timeScale'), (s) => number(s, (n) => Number.isFinite(n) && n > 0, 'a number > 0'));
  const rateLimit = mapOpt(get('rateLimit'), (s) =>
    number(s, (n) => Number.isInteger(n) && n >= 1, 'a whole number of requests per minute >= 1'),
  );
  const maxSpendCredits = mapOpt(get('maxSpendCredits'), (s) =>
    number(s, (n) => Number.isInteger(n) && n >= 0, 'a whole number of credits >= 0'),
  );

  const reporterList = list('reporter');
  const reporters = reporterList ? validateReporters(reporterList) : [...REPORTER_NAMES];

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
    grep: str('grep')?.value,
    strict: bool('strict'),
    ...(baseline !== undefined ? { baselineFile: baseline, baselinePath: resolve(cwd, baseline) } : {}),
    exhaustLimits: bool('exhaustLimits'),
    noWebhookRegistered: bool('webhookNotRegistered'),
    userRole: str('userRole')?.value,
  };
}

function mapOpt<T, R>(v: T | undefined, f: (v: T) => R): R | undefined {
  return v === undefined ? undefined : f(v);
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

function show(s: Sourced<string>, secret = false): string {
  return secret ? previewSecret(s.value) : s.value;
}

function validateBaseUrl(s: Sourced<string>): string {
  let url: URL;
  try {
    url = new URL(s.value);
  } catch {
    throw new ConfigError(`${s.source} must be an absolute http(s) URL ending in /v1 (got "${s.value}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${s.source} must use http:// or https:// (got "${s.value}")`);
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new ConfigError(`${s.source} must not carry a query, fragment or credentials (got "${url.origin}${url.pathname}…")`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (!path.endsWith('/v1')) {
    throw new ConfigError(`${s.source} must end in /v1, the API's base path (got "${s.value}"; try "${url.origin}${path}/v1")`);
  }
  return `${url.origin}${path}`;
}

function validateHttpUrl(s: Sourced<string>): string {
  let url: URL;
  try {
    url = new URL(s.value);
  } catch {
    throw new ConfigError(`${s.source} must be an absolute http(s) URL (got "${s.value}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${s.source} must use http:// or https:// (got "${s.value}")`);
  }
  return url.href;
}

function validateSecret(s: Sourced<string>, prefix: string, what: string): string {
  const re = new RegExp(`^${prefix}[0-9a-f]{48}$`);
  if (!re.test(s.value)) {
    throw new ConfigError(
      `${s.source} must be ${what}: "${prefix}" followed by 48 lowercase hex characters (got "${show(s, true)}", ${s.value.length} characters)`,
    );
  }
  return s.value;
}

function validateCode(raw: string, source: string): string {
  const code = normalizeActivationCode(raw);
  if (!code) {
    throw new ConfigError(
      `${source} must be an activation code of the form SVC-XXXX-XXXX with X from ABCDEFGHJKMNPQRSTUVWXYZ23456789 (got "${raw}")`,
    );
  }
  return code;
}

function validateListen(s: Sourced<string>): ListenAddress {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:\s]+)):(\d{1,5})$/.exec(s.value);
  const port = m ? Number(m[3]) : NaN;
  if (!m || port > 65535) {
    throw new ConfigError(`${s.source} must be HOST:PORT, e.g. 127.0.0.1:8787 or 0.0.0.0:0 (got "${s.value}")`);
  }
  return { host: m[1] ?? m[2]!, port };
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

function number(s: Sourced<RawValue>, ok: (n: number) => boolean, what: string): number {
  const text = typeof s.value === 'string' ? s.value.trim() : String(s.value);
  const n = text === '' ? NaN : Number(text);
  if (!ok(n)) throw new ConfigError(`${s.source} must be ${what} (got "${text}")`);
  return n;
}

function validateReporters(s: Sourced<string[]>): ReporterName[] {
  if (s.value.length === 0) throw new ConfigError(`${s.source} is empty; choose from ${REPORTER_NAMES.join(',')}`);
  const out: ReporterName[] = [];
  for (const name of s.value) {
    if (!(REPORTER_NAMES as readonly string[]).includes(name)) {
      throw new ConfigError(`${s.source}: unknown reporter "${name}"; choose from ${REPORTER_NAMES.join(',')}`);
    }
    if (!out.includes(name as ReporterName)) out.push(name as ReporterName);
  }
  return out;
}

function validateSuites(s: Sourced<string[]>, known: readonly string[]): string[] {
  for (const name of s.value) {
    if (!known.includes(name)) {
      throw new ConfigError(`${s.source}: unknown suite "${name}"; choose from ${known.join(', ')} (see: svc-certify list)`);
    }
  }
  return [...new Set(s.value)];
}
