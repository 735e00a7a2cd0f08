// The secrets of a command are the options its table marks `secret`, and nothing else: every
// redactor is built from them (plus what the session learns, e.g. issued org tokens), each secret
// named by its option's environment variable (what a curl reproduction exports).

import type { Config } from './config.js';
import { envOf, type OptionSpec } from './option-spec.js';
import type { NamedSecret } from './redact.js';
import { RUN_OPTIONS } from './run-options.js';

type SecretRunOption = Extract<(typeof RUN_OPTIONS)[number], { secret: true }>;
/** The keys of the run options marked secret; each is a string field of Config. */
export type SecretKey = SecretRunOption['key'];

export const SECRET_RUN_OPTIONS: readonly SecretRunOption[] = RUN_OPTIONS.filter(
  (o): o is SecretRunOption => 'secret' in o && o.secret,
);

/** A secret value named like the run option that carries it (a provisioned key: SVC_PARTNER_KEY). */
export function namedSecret(key: SecretKey, value: string): NamedSecret {
  const spec = SECRET_RUN_OPTIONS.find((o) => o.key === key);
  return { value, envVar: spec ? envOf(spec) : 'SECRET' };
}

/** The secrets a run's configuration holds. */
export function secretsOfConfig(config: Pick<Config, SecretKey>): NamedSecret[] {
  return SECRET_RUN_OPTIONS.flatMap((o) => {
    const value = config[o.key];
    return value ? [{ value, envVar: envOf(o) }] : [];
  });
}

/**
 * The secrets of a command line before (or without) any parsing: each option of `specs` marked
 * secret, given as `--flag value`, `--flag=value` or its environment variable. main.ts scrubs error
 * messages with these, whatever went wrong.
 */
export function secretsOfArgs(
  specs: readonly OptionSpec[],
  argv: readonly string[],
  env: Record<string, string | undefined>,
): NamedSecret[] {
  const out: NamedSecret[] = [];
  for (const o of specs.filter((x) => x.secret)) {
    const envVar = envOf(o);
    const fromEnv = env[envVar];
    if (fromEnv) out.push({ value: fromEnv, envVar });
    argv.forEach((arg, i) => {
      const next = argv[i + 1];
      if (arg === o.flag && next !== undefined) out.push({ value: next, envVar });
      else if (arg.startsWith(`${o.flag}=`)) out.push({ value: arg.slice(o.flag.length + 1), envVar });
    });
  }
  return out;
}

/**
 * Secrets the session learned (a provision, an issued org token), for the CLI's last-resort scrub of
 * an unexpected error: it cannot reach the command's redactor, so the command reports them here.
 */
const learned: NamedSecret[] = [];

export function rememberSecrets(secrets: readonly NamedSecret[]): void {
  for (const s of secrets) if (!learned.some((x) => x.value === s.value)) learned.push(s);
}

export function learnedSecrets(): readonly NamedSecret[] {
  return learned;
}
