// Resolves the options of one command from its table: flag > environment variable > config file
// (`run` only) > the entry's default. Every value given is validated at once, in table order, so a bad
// one exits 2 with one line before anything starts; then an option that has no effect without another
// (`requires`) is refused the same way. The result is typed from the table: `get('timeScale')` is what
// the entry's validator returns, so a caller cannot ask for another type.

import { ConfigError } from './config-error.js';
import { envOf, type OptionSpec, type ValueOf } from './option-spec.js';
import { isKubernetesShapedValue } from './k8s-env.js';

export type Env = Record<string, string | undefined>;

export interface ResolveInput {
  /** The flags commander parsed, keyed by the entries' keys; undefined = not given. */
  flags: Record<string, unknown>;
  env: Env;
  /** svc-certify.config.json of `run`: its values by key, and how a value from it is named in a message. */
  file?: { values: Record<string, unknown>; sourceOf: (key: string) => string };
}

type KeyOf<S extends readonly OptionSpec[]> = S[number]['key'];
type EntryOf<S extends readonly OptionSpec[], K> = Extract<S[number], { key: K }>;

export interface ResolvedOptions<S extends readonly OptionSpec[]> {
  /** The validated value, else the entry's default, else undefined (never, for an entry with a default). */
  get<K extends KeyOf<S>>(
    key: K,
  ): EntryOf<S, K> extends { default: string } ? ValueOf<EntryOf<S, K>> : ValueOf<EntryOf<S, K>> | undefined;
  /** Where the value was given ("--port", "SVC_PORT_NUMBER", a config-file key); undefined when not given. */
  source(key: KeyOf<S>): string | undefined;
}

type Raw = { value: unknown; source: string };

/** A negated switch (`--no-inject`): given means the key is false; commander's implicit `true` is not "given". */
const negated = (spec: OptionSpec): boolean => spec.kind === 'boolean' && spec.flag.startsWith('--no-');

function pick(spec: OptionSpec, input: ResolveInput): Raw | undefined {
  const flag = input.flags[spec.key];
  const flagGiven = negated(spec) ? flag === false : flag !== undefined && !(Array.isArray(flag) && flag.length === 0);
  if (flagGiven) return { value: flag, source: spec.flag };
  const env = envOf(spec);
  const fromEnv = input.env[env];
  if (fromEnv !== undefined && fromEnv !== '') return { value: fromEnv, source: env };
  // The name before the rename, for one release: Kubernetes' own value for it is not ours.
  const former = spec.formerEnv ? input.env[spec.formerEnv] : undefined;
  if (spec.formerEnv && former !== undefined && former !== '' && !isKubernetesShapedValue(former))
    return { value: former, source: spec.formerEnv };
  const file = input.file;
  if (file && file.values[spec.key] !== undefined && file.values[spec.key] !== null)
    return { value: file.values[spec.key], source: file.sourceOf(spec.key) };
  return undefined;
}

function parseBoolean(spec: OptionSpec, raw: Raw): boolean {
  let on: boolean;
  if (typeof raw.value === 'boolean') on = raw.value;
  else if (typeof raw.value === 'string' && raw.source === envOf(spec)) {
    // A switch's environment variable is text; anything but these four is a mistake worth saying.
    const text = raw.value.trim().toLowerCase();
    if (text !== 'true' && text !== '1' && text !== 'false' && text !== '0') {
      throw new ConfigError(
        `${raw.source} must be 1, 0, true or false (got "${raw.value}"); e.g. ${raw.source}=1 for ${spec.flag}`,
      );
    }
    on = text === 'true' || text === '1';
    // SVC_NO_INJECT=1 means --no-inject: the key (inject) is false.
    if (negated(spec)) on = !on;
  } else throw new ConfigError(`${raw.source} must be true or false`);
  return on;
}

function parseString(spec: OptionSpec, raw: Raw): unknown {
  const text = typeof raw.value === 'number' ? String(raw.value) : raw.value;
  if (typeof text !== 'string') throw new ConfigError(`${raw.source} must be a string`);
  const trimmed = text.trim();
  if (trimmed === '') throw new ConfigError(`${raw.source} is empty; give a value or leave it out`);
  return spec.validate ? spec.validate({ value: trimmed, source: raw.source }) : trimmed;
}

function parseList(spec: OptionSpec, raw: Raw): unknown[] {
  const items: unknown[] = Array.isArray(raw.value) ? raw.value : [raw.value];
  const texts = items.map((i) => (typeof i === 'number' ? String(i) : i));
  const strings = texts.filter((i): i is string => typeof i === 'string');
  if (strings.length !== texts.length) throw new ConfigError(`${raw.source} must be a string or a list of strings`);
  const values = strings
    .flatMap((i) => i.split(','))
    .map((i) => i.trim())
    .filter((i) => i !== '');
  const validate = spec.validate;
  return validate ? values.map((value) => validate({ value, source: raw.source })) : values;
}

function parse(spec: OptionSpec, raw: Raw): unknown {
  if (spec.kind === 'boolean') return parseBoolean(spec, raw);
  if (spec.kind === 'list') return parseList(spec, raw);
  return parseString(spec, raw);
}

/** Values and sources of every entry; refuses a bad value or an option without the one it requires. */
export function resolveOptions<S extends readonly OptionSpec[]>(specs: S, input: ResolveInput): ResolvedOptions<S>;
// The one untyped step of the config layer: a heterogeneous table read into a Map cannot be narrowed
// per key by the compiler, so the typed view is the overload above (its types come from the table).
export function resolveOptions(specs: readonly OptionSpec[], input: ResolveInput): unknown {
  const values = new Map<string, unknown>();
  const sources = new Map<string, string>();
  for (const spec of specs) {
    const raw = pick(spec, input);
    if (raw) {
      values.set(spec.key, parse(spec, raw));
      sources.set(spec.key, raw.source);
    } else if (spec.default !== undefined) {
      values.set(spec.key, parse(spec, { value: spec.default, source: `the default of ${spec.flag}` }));
    }
  }
  for (const spec of specs) {
    const source = sources.get(spec.key);
    if (!spec.requires || source === undefined || sources.has(spec.requires.key)) continue;
    const needed = specs.find((s) => s.key === spec.requires?.key);
    const flag = needed ? `${needed.flag} (${envOf(needed)})` : spec.requires.key;
    throw new ConfigError(
      `${source} has no effect without ${flag}: ${spec.requires.why}; give ${flag} or leave ${source} out`,
    );
  }
  return { get: (key: string) => values.get(key), source: (key: string) => sources.get(key) };
}
