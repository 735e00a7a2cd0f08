// One declaration per command-line option: the flag commander parses, its environment variable, the
// key it has in svc-certify.config.json (`run`) and in the parsed flags object, its --help text and
// how its value is validated. The commander options and the config loader are both generated from
// these tables, so an option cannot exist in one place and be missing in the other.

/** A value as the user wrote it, with where: "--time-scale", "SVC_TIME_SCALE" or a config-file key. */
export interface Sourced<T> {
  value: T;
  source: string;
}

export type OptionKind = 'string' | 'list' | 'boolean';

export interface OptionSpec {
  /** commander's camelCase key of the flag; for `run` also the key in svc-certify.config.json. */
  key: string;
  flag: string;
  /** The value placeholder in --help, e.g. `<url>`; absent for a switch. */
  arg?: string;
  env?: string;
  /** string: one value; list: comma-separated or repeated values; boolean: a switch. */
  kind: OptionKind;
  /** The flag may be given several times (each value is kept). */
  repeatable?: boolean;
  /** A secret is never echoed back in an error message (the validator previews it). */
  secret?: boolean;
  /** commander's default, shown in --help. */
  default?: string;
  /** --help text; the environment variable is appended from `env`. */
  description: string;
  /**
   * Turns a present, non-empty value (each item of a list) into its typed form; throws a ConfigError
   * of one line naming `source`. Absent: the trimmed string is the value.
   */
  validate?: (value: Sourced<string>) => unknown;
}

/** The flag with its placeholder, as commander declares it: `--base-url <url>`. */
export function flagsOf(spec: OptionSpec): string {
  return spec.arg ? `${spec.flag} ${spec.arg}` : spec.flag;
}

/** The --help text: the description, then `[ENV]` (`[ENV, comma-separated]` for a list). */
export function helpOf(spec: OptionSpec): string {
  if (!spec.env) return spec.description;
  return `${spec.description} [${spec.env}${spec.kind === 'list' ? ', comma-separated' : ''}]`;
}
