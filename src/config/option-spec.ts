// One declaration per command-line option: the flag commander parses, its environment variable, the
// key it has in svc-certify.config.json (`run`) and in the parsed flags object, its --help text, its
// type and validator, whether it is a secret and what it needs to have an effect. The commander
// options, the environment variables, --help, the loaders, the redactors and the options reference
// (docs/reference/options.md) are all generated from these tables, so an option cannot exist in one
// place and be missing in another.

/** A value as the user wrote it, with where: "--time-scale", "SVC_TIME_SCALE" or a config-file key. */
export interface Sourced<T> {
  value: T;
  source: string;
}

type OptionKind = 'string' | 'list' | 'boolean';

/** An option that has an effect only when another one is given (else: a usage error saying why). */
export interface Requirement {
  /** The key of the option it needs, in the same table. */
  key: string;
  /** Why it has no effect without it, e.g. "the embedded sandbox makes its own key". */
  why: string;
}

export interface OptionSpec<K extends string = string, T = unknown> {
  /** commander's camelCase key of the flag; for `run` also the key in svc-certify.config.json. */
  key: K;
  flag: string;
  /** The value placeholder in --help, e.g. `<url>`; absent for a switch. */
  arg?: string;
  /**
   * Only where an older name must keep working (`SVC_ACTIVATION_CODES`) or the derived one would be a
   * name Kubernetes injects (`SVC_PORT`: k8s-env.ts); otherwise the variable is derived from the flag
   * by envOf, so nobody has to remember the rule.
   */
  env?: string;
  /**
   * The variable's name before a rename, read for one release (with a warning) when the new one is not
   * set: `SVC_PORT` and `SVC_URL`, names Kubernetes injects into every pod for a Service named `svc`.
   * A value of Kubernetes' own shape (`tcp://10.0.0.1:80`) is never read as the option (k8s-env.ts).
   */
  formerEnv?: string;
  /** string: one value; list: comma-separated or repeated values; boolean: a switch. */
  kind: OptionKind;
  /** The flag may be given several times (each value is kept). */
  repeatable?: boolean;
  /** A secret: redacted from every output of the command, never echoed back in an error message. */
  secret?: boolean;
  /** The value when neither flag, variable nor config file gives one; shown in --help. */
  default?: string;
  /** --help text; the environment variable and the default are appended. */
  description: string;
  /**
   * Turns a present, non-empty value (each item of a list) into its typed form; throws a ConfigError
   * of one line naming `source`. Absent: the trimmed string is the value.
   */
  validate?: (value: Sourced<string>) => T;
  /** Has no effect without this other option: giving it alone is a usage error. */
  requires?: Requirement;
}

/** The value an entry resolves to, derived from its kind and the return type of its validator. */
export type ValueOf<E> = E extends { kind: 'boolean' }
  ? boolean
  : E extends { kind: 'list' }
    ? E extends { validate: (s: Sourced<string>) => infer T }
      ? T[]
      : string[]
    : E extends { validate: (s: Sourced<string>) => infer T }
      ? T
      : string;

/** The environment variable of an option: `SVC_` + the flag in upper snake case (--exhaust-limits → SVC_EXHAUST_LIMITS). */
export function envOf(spec: Pick<OptionSpec, 'flag' | 'env'>): string {
  return spec.env ?? `SVC_${spec.flag.replace(/^--/, '').replace(/-/g, '_').toUpperCase()}`;
}

/** The flag with its placeholder, as commander declares it: `--base-url <url>`. */
export function flagsOf(spec: OptionSpec): string {
  return spec.arg ? `${spec.flag} ${spec.arg}` : spec.flag;
}

/** The --help text: the description, the default, then `[ENV]` (`[ENV, comma-separated]` for a list). */
export function helpOf(spec: OptionSpec): string {
  const withDefault = spec.default !== undefined ? `${spec.description} (default: ${spec.default})` : spec.description;
  const how = spec.kind === 'list' ? ', comma-separated' : spec.kind === 'boolean' ? ', 1/0/true/false' : '';
  return `${withDefault} [${envOf(spec)}${how}]`;
}
