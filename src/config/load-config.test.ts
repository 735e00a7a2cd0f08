import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { normalizeActivationCode } from './activation-code.js';
import { ConfigError } from './config-error.js';
import { loadConfig, type LoadConfigInput } from './load-config.js';
import { redactedConfig } from './redacted-config.js';

const KEY = `spk_live_${'a1'.repeat(24)}`;
const KEY2 = `spk_live_${'b2'.repeat(24)}`;
const TOKEN = `sot_${'c3'.repeat(24)}`;
const SUITES = ['auth', 'conventions', 'fixtures'];
/** A target of the user's own: the options about credentials and the receiver only apply to one. */
const TARGET = { baseUrl: 'https://x.example/v1', partnerKey: KEY };

function dir(file?: unknown): string {
  const d = mkdtempSync(join(tmpdir(), 'svc-config-'));
  if (file !== undefined)
    writeFileSync(join(d, 'svc-certify.config.json'), typeof file === 'string' ? file : JSON.stringify(file));
  return d;
}

function load(input: Partial<LoadConfigInput> = {}) {
  return loadConfig({ flags: {}, env: {}, cwd: dir(), knownSuites: SUITES, ...input });
}

function errorOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('no ConfigError thrown');
}

describe('loadConfig precedence', () => {
  it('uses defaults: embedded sandbox at time scale 60, every reporter', () => {
    const c = load();
    expect(c.baseUrl).toBeUndefined();
    expect(c.timeScale).toBe(60);
    expect(c.rateLimit).toBe(120);
    expect(c.environment).toBe('auto');
    expect(c.maxSpendCredits).toBe(0);
    expect(c.reporters).toEqual(['console', 'junit', 'html', 'json', 'markdown']);
    expect(c.reportDir.endsWith('reports')).toBe(true);
    expect(c.strict).toBe(false);
  });

  it('accepts every reporter of the registry, sarif included, as the other certifying commands do', () => {
    expect(load({ flags: { reporter: ['sarif,json', 'json'] } }).reporters).toEqual(['sarif', 'json']);
  });

  it('defaults the time scale to 1 for a real target', () => {
    expect(load({ flags: { baseUrl: 'https://x.example/v1', partnerKey: KEY } }).timeScale).toBe(1);
  });

  it('takes flag over env over file over default', () => {
    const cwd = dir({ timeScale: 3, rateLimit: 30, partnerKey: KEY2, baseUrl: 'https://file.example/v1' });
    const env = { SVC_TIME_SCALE: '2', SVC_PARTNER_KEY: KEY };
    const c = loadConfig({ flags: { timeScale: '5' }, env, cwd, knownSuites: SUITES });
    expect(c.timeScale).toBe(5);
    expect(c.partnerKey).toBe(KEY);
    expect(c.rateLimit).toBe(30);
    expect(c.baseUrl).toBe('https://file.example/v1');
    const c2 = loadConfig({ flags: {}, env, cwd, knownSuites: SUITES });
    expect(c2.timeScale).toBe(2);
  });

  it('reads --user-role from the flag, SVC_USER_ROLE or the file key userRole, and records it', () => {
    expect(load().userRole).toBeUndefined();
    expect(load({ cwd: dir({ userRole: 'file_role' }) }).userRole).toBe('file_role');
    expect(load({ cwd: dir({ userRole: 'file_role' }), env: { SVC_USER_ROLE: 'env_role' } }).userRole).toBe('env_role');
    const c = load({ flags: { userRole: ' hiring_manager ' }, env: { SVC_USER_ROLE: 'env_role' } });
    expect(c.userRole).toBe('hiring_manager');
    expect(redactedConfig(c).userRole).toBe('hiring_manager');
    expect(errorOf(() => load({ flags: { userRole: ' ' } }))).toContain('--user-role is empty');
  });

  it('reads repeatable and comma-separated activation codes, normalized', () => {
    expect(load({ flags: { ...TARGET, activationCode: ['svc abcd efgh', 'SVC-JKMN-PQRS'] } }).activationCodes).toEqual([
      'SVC-ABCD-EFGH',
      'SVC-JKMN-PQRS',
    ]);
    expect(
      load({ flags: TARGET, env: { SVC_ACTIVATION_CODES: 'SVC-ABCD-EFGH, svc-jkmn-pqrs' } }).activationCodes,
    ).toEqual(['SVC-ABCD-EFGH', 'SVC-JKMN-PQRS']);
  });

  it('strips a trailing slash from the base URL', () => {
    expect(load({ flags: { baseUrl: 'https://x.example/api/v1/', partnerKey: KEY } }).baseUrl).toBe(
      'https://x.example/api/v1',
    );
  });

  it('parses webhook listen addresses, IPv6 included', () => {
    expect(load({ flags: { ...TARGET, webhookListen: '0.0.0.0:8787' } }).webhookListen).toEqual({
      host: '0.0.0.0',
      port: 8787,
    });
    expect(load({ flags: { ...TARGET, webhookListen: '[::1]:0' } }).webhookListen).toEqual({ host: '::1', port: 0 });
  });

  it('reads a TLS pair', () => {
    const d = dir();
    writeFileSync(join(d, 'c.pem'), 'CERT');
    writeFileSync(join(d, 'k.pem'), 'KEY');
    const c = loadConfig({
      flags: { ...TARGET, webhookTlsCert: 'c.pem', webhookTlsKey: 'k.pem' },
      env: {},
      cwd: d,
      knownSuites: SUITES,
    });
    expect(c.webhookTls).toMatchObject({ cert: 'CERT', key: 'KEY' });
  });
});

describe('loadConfig validation (each a ConfigError naming the option)', () => {
  const cases: Array<[string, Partial<LoadConfigInput>, RegExp]> = [
    ['malformed URL', { flags: { baseUrl: 'not a url', partnerKey: KEY } }, /^--base-url must be an absolute/],
    [
      'URL not ending in /v1',
      { flags: { baseUrl: 'https://x.example/api', partnerKey: KEY } },
      /--base-url must end in \/v1/,
    ],
    ['ftp URL', { flags: { baseUrl: 'ftp://x.example/v1', partnerKey: KEY } }, /--base-url must use http/],
    [
      'base URL without partner key',
      { flags: { baseUrl: 'https://x.example/v1' } },
      /--base-url is set but no partner key.*SVC_PARTNER_KEY/,
    ],
    ['bad partner key', { flags: { partnerKey: 'spk_live_nothex' } }, /--partner-key must be a partner key/],
    ['bad org token', { env: { SVC_ORG_TOKEN: 'sot_123' } }, /^SVC_ORG_TOKEN must be an org token/],
    [
      'bad activation code',
      { flags: { activationCode: ['SVC-ABCD-EFG0'] } },
      /--activation-code must be an activation code of the form SVC-XXXX-XXXX/,
    ],
    ['bad expired code', { env: { SVC_EXPIRED_CODE: 'XYZ' } }, /^SVC_EXPIRED_CODE must be an activation code/],
    ['time scale 0', { flags: { timeScale: '0' } }, /^--time-scale must be a number > 0 \(got "0"\)$/],
    ['time scale text', { env: { SVC_TIME_SCALE: 'fast' } }, /^SVC_TIME_SCALE must be a number > 0 \(got "fast"\)$/],
    ['negative time scale', { flags: { timeScale: '-2' } }, /--time-scale must be a number > 0/],
    ['rate limit 0', { flags: { rateLimit: '0' } }, /--rate-limit must be a whole number/],
    ['rate limit fraction', { flags: { rateLimit: '1.5' } }, /--rate-limit must be a whole number/],
    [
      'max spend negative',
      { flags: { maxSpendCredits: '-1' } },
      /--max-spend-credits must be a whole number of credits/,
    ],
    [
      'unknown reporter',
      { flags: { reporter: ['console,pdf'] } },
      /--reporter: unknown reporter "pdf"; choose from console,junit,html,json,markdown/,
    ],
    [
      'environment',
      { flags: { environment: 'staging' } },
      /--environment must be one of sandbox, production, auto \(got "staging"\)/,
    ],
    ['webhook listen without port', { flags: { webhookListen: 'localhost' } }, /--webhook-listen must be HOST:PORT/],
    [
      'webhook listen port too big',
      { flags: { webhookListen: '127.0.0.1:70000' } },
      /--webhook-listen must be HOST:PORT/,
    ],
    ['webhook public url', { flags: { webhookPublicUrl: 'nope' } }, /--webhook-public-url must be an absolute/],
    [
      'tls cert without key',
      { flags: { ...TARGET, webhookTlsCert: 'c.pem' } },
      /--webhook-tls-cert is given without --webhook-tls-key/,
    ],
    [
      'tls key without cert',
      { flags: { ...TARGET, webhookTlsKey: 'k.pem' } },
      /--webhook-tls-key is given without --webhook-tls-cert/,
    ],
    [
      'unreadable tls file',
      { flags: { ...TARGET, webhookTlsCert: 'missing.pem', webhookTlsKey: 'missing-key.pem' } },
      /--webhook-tls-cert: cannot read "missing.pem" \(ENOENT\)/,
    ],
    ['unknown suite', { flags: { suite: ['auth', 'nope'] } }, /--suite: unknown suite "nope"/],
    [
      'switch variable not 1/0/true/false',
      { env: { SVC_STRICT: 'yes' } },
      /^SVC_STRICT must be 1, 0, true or false \(got "yes"\)/,
    ],
    // The embedded sandbox provisions its own credentials and receiver: these would be silently ignored.
    [
      'partner key without a target',
      { flags: { partnerKey: KEY } },
      /^--partner-key has no effect without --base-url \(SVC_BASE_URL\): the embedded sandbox provisions its own key/,
    ],
    [
      'partner key variable without a target',
      { env: { SVC_PARTNER_KEY: KEY } },
      /^SVC_PARTNER_KEY has no effect without --base-url/,
    ],
    [
      'webhook listen without a target',
      { flags: { webhookListen: '127.0.0.1:8787' } },
      /^--webhook-listen has no effect without --base-url \(SVC_BASE_URL\): the embedded sandbox runs its own webhook receiver/,
    ],
    [
      'webhook secret without a target',
      { env: { SVC_WEBHOOK_SECRET: 'long-enough-secret' } },
      /^SVC_WEBHOOK_SECRET has no effect without --base-url/,
    ],
    [
      'webhook-not-registered without a target',
      { flags: { webhookNotRegistered: true } },
      /^--webhook-not-registered has no effect without --base-url/,
    ],
    [
      'activation codes in the config file without a target',
      { cwd: dir({ activationCode: ['SVC-ABCD-EFGH'] }) },
      /^svc-certify.config.json key "activationCode" has no effect without --base-url/,
    ],
  ];
  for (const [name, input, pattern] of cases) {
    it(`refuses ${name}`, () => {
      expect(errorOf(() => load(input))).toMatch(pattern);
    });
  }

  it('never echoes a secret in full', () => {
    const bad = `${KEY}ff`;
    const message = errorOf(() => load({ flags: { partnerKey: bad } }));
    expect(message).not.toContain(bad);
    expect(message).toContain('spk_live_a1a…');
  });

  it('refuses unknown keys in svc-certify.config.json', () => {
    const cwd = dir({ baseUrl: 'https://x.example/v1', partnerKey: KEY, colour: true });
    expect(errorOf(() => loadConfig({ flags: {}, env: {}, cwd, knownSuites: SUITES }))).toMatch(
      /svc-certify.config.json has unknown key "colour"; allowed keys: baseUrl/,
    );
  });

  it('refuses a config file that is not JSON or not an object', () => {
    expect(errorOf(() => loadConfig({ flags: {}, env: {}, cwd: dir('{nope'), knownSuites: SUITES }))).toMatch(
      /is not valid JSON/,
    );
    expect(errorOf(() => loadConfig({ flags: {}, env: {}, cwd: dir('[1]'), knownSuites: SUITES }))).toMatch(
      /must hold a JSON object/,
    );
  });

  it('names the file key when the bad value came from the file', () => {
    const cwd = dir({ timeScale: 0 });
    expect(errorOf(() => loadConfig({ flags: {}, env: {}, cwd, knownSuites: SUITES }))).toBe(
      'svc-certify.config.json key "timeScale" must be a number > 0 (got "0")',
    );
  });
});

describe('normalizeActivationCode', () => {
  it('normalizes case, spaces and dashes', () => {
    expect(normalizeActivationCode(' svc abcd-efgh ')).toBe('SVC-ABCD-EFGH');
    expect(normalizeActivationCode('svcabcdefgh')).toBe('SVC-ABCD-EFGH');
  });
  it('refuses letters outside the alphabet and wrong lengths', () => {
    expect(normalizeActivationCode('SVC-ABCD-EFG1')).toBeUndefined();
    expect(normalizeActivationCode('SVC-ABCD-EFGO')).toBeUndefined();
    expect(normalizeActivationCode('SVC-ABCD-EFGHJ')).toBeUndefined();
    expect(normalizeActivationCode('ABC-ABCD-EFGH')).toBeUndefined();
  });
});

describe('redactedConfig', () => {
  it('shows secrets by their first 12 characters only', () => {
    const c = load({
      flags: {
        baseUrl: 'https://x.example/v1',
        partnerKey: KEY,
        orgToken: TOKEN,
        webhookSecret: 'whsec_0123456789abcdef0123',
      },
    });
    const text = JSON.stringify(redactedConfig(c));
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain('whsec_0123456789abcdef0123');
    expect(redactedConfig(c).partnerKey).toBe(`${KEY.slice(0, 12)}…`);
  });
});

describe('--real-names-enabled', () => {
  it('is off by default, on from the flag, the environment (true/1) or the config file, and shown in the redacted config only when on', () => {
    expect(load().realNamesEnabled).toBe(false);
    expect(redactedConfig(load())).not.toHaveProperty('realNamesEnabled');
    expect(load({ flags: { realNamesEnabled: true } }).realNamesEnabled).toBe(true);
    expect(load({ env: { SVC_REAL_NAMES_ENABLED: 'true' } }).realNamesEnabled).toBe(true);
    expect(load({ env: { SVC_REAL_NAMES_ENABLED: '1' } }).realNamesEnabled).toBe(true);
    expect(load({ env: { SVC_REAL_NAMES_ENABLED: 'false' } }).realNamesEnabled).toBe(false);
    expect(load({ cwd: dir({ realNamesEnabled: true }) }).realNamesEnabled).toBe(true);
    expect(redactedConfig(load({ flags: { realNamesEnabled: true } })).realNamesEnabled).toBe(true);
  });

  it('refuses an environment value that is no switch, naming the variable', () => {
    expect(errorOf(() => load({ env: { SVC_REAL_NAMES_ENABLED: 'maybe' } }))).toContain('SVC_REAL_NAMES_ENABLED');
  });
});

describe('the exploration options', () => {
  it('fixes the seed by default, so two loads of the same configuration explore alike; --seed random draws one', () => {
    const a = load();
    const b = load();
    expect(a.seed).toBe(b.seed);
    expect(a.seedDrawn).toBeUndefined();
    expect(load({ flags: { seed: '42' } }).seed).toBe(42);
    const drawn = load({ env: { SVC_SEED: 'random' } });
    expect(drawn.seedDrawn).toBe(true);
    expect(Number.isInteger(drawn.seed) && drawn.seed >= 0 && drawn.seed <= 0x7fffffff).toBe(true);
  });

  it('reads --explore up to its documented maximum, in decimal digits only', () => {
    expect(load({ flags: { explore: '10000' } }).explore).toBe(10_000);
    expect(load({ flags: { explore: '0' } }).explore).toBe(0);
    for (const bad of ['10001', '1e7', '1e12', '1000000000000', '0x10', '0b1', '+16', 'Infinity', '-1', '2.5'])
      expect(errorOf(() => load({ flags: { explore: bad } }))).toBe(
        `--explore must be a whole number of requests from 0 to 10000 (got "${bad}")`,
      );
  });

  it('refuses a seed in any notation but decimal digits, or out of range, in one line', () => {
    for (const bad of ['0x10', '1e3', '2147483648', '-1', 'randomly'])
      expect(errorOf(() => load({ flags: { seed: bad } }))).toBe(
        `--seed must be random or a whole number from 0 to 2147483647 (got "${bad}")`,
      );
  });

  it('reads other numbers in decimal only too: a time scale of 0x10 is refused', () => {
    expect(errorOf(() => load({ flags: { timeScale: '0x10' } }))).toMatch(/^--time-scale must be a number > 0/);
    expect(load({ flags: { timeScale: '0.5' } }).timeScale).toBe(0.5);
  });
});

describe('in CI nothing is certified implicitly', () => {
  const REFUSAL =
    /^no target in CI: set SVC_BASE_URL \(or --base-url\) to the deployment to certify; to certify the reference sandbox give --embedded$/;

  it.each(['true', '1', 'yes', 'gitlab'])(
    'CI=%s without a target is refused, naming SVC_BASE_URL and --embedded',
    (ci) => {
      expect(errorOf(() => load({ env: { CI: ci } }))).toMatch(REFUSAL);
    },
  );

  it('CI with --embedded (or SVC_EMBEDDED=1) certifies the sandbox; CI with a target certifies the target', () => {
    expect(load({ env: { CI: 'true' }, flags: { embedded: true } }).baseUrl).toBeUndefined();
    expect(load({ env: { CI: 'true', SVC_EMBEDDED: '1' } }).timeScale).toBe(60);
    expect(load({ env: { CI: 'true' }, flags: TARGET }).baseUrl).toBe(TARGET.baseUrl);
    expect(load({ env: { CI: 'true', SVC_BASE_URL: TARGET.baseUrl, SVC_PARTNER_KEY: KEY } }).baseUrl).toBe(
      TARGET.baseUrl,
    );
  });

  it.each([undefined, '', '0', 'false', 'FALSE', 'no', 'off'])(
    'outside CI (CI=%s) the quick start stays flagless',
    (ci) => {
      expect(load({ env: ci === undefined ? {} : { CI: ci } }).baseUrl).toBeUndefined();
    },
  );

  it('--embedded with a target is refused: the two exclude each other', () => {
    expect(errorOf(() => load({ flags: { ...TARGET, embedded: true } }))).toMatch(
      /^--embedded \(SVC_EMBEDDED\) and --base-url \(SVC_BASE_URL\) exclude each other/,
    );
  });
});
