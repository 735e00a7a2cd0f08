import { describe, expect, it } from 'vitest';
import { ConfigError } from './config-error.js';
import type { OptionSpec } from './option-spec.js';
import { resolveOptions } from './resolve-options.js';
import { positiveNumber } from './validators.js';

const TABLE = [
  {
    key: 'timeScale',
    flag: '--time-scale',
    arg: '<n>',
    kind: 'string',
    default: '1',
    validate: positiveNumber,
    description: 'scale',
  },
  { key: 'name', flag: '--name', arg: '<text>', kind: 'string', description: 'a name' },
  { key: 'tag', flag: '--tag', arg: '<t>', kind: 'list', repeatable: true, description: 'tags' },
  { key: 'loud', flag: '--loud', kind: 'boolean', description: 'a switch' },
  { key: 'inject', flag: '--no-inject', kind: 'boolean', description: 'a negated switch' },
  { key: 'target', flag: '--target', arg: '<url>', kind: 'string', description: 'where' },
  {
    key: 'key',
    flag: '--key',
    arg: '<k>',
    kind: 'string',
    requires: { key: 'target', why: 'without a target nobody reads it' },
    description: 'a key',
  },
] as const satisfies readonly OptionSpec[];

const resolve = (flags: Record<string, unknown>, env: Record<string, string> = {}, file?: Record<string, unknown>) =>
  resolveOptions(TABLE, {
    flags,
    env,
    ...(file ? { file: { values: file, sourceOf: (k: string) => `file key "${k}"` } } : {}),
  });

function errorOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return e instanceof Error ? e.message : '';
  }
  throw new Error('expected a ConfigError');
}

describe('resolveOptions: flag > environment variable > config file > default', () => {
  it('takes the flag over the variable, the variable over the file, the file over the default', () => {
    expect(resolve({ timeScale: '5' }, { SVC_TIME_SCALE: '6' }, { timeScale: 7 }).get('timeScale')).toBe(5);
    expect(resolve({}, { SVC_TIME_SCALE: '6' }, { timeScale: 7 }).get('timeScale')).toBe(6);
    expect(resolve({}, {}, { timeScale: 7 }).get('timeScale')).toBe(7);
    expect(resolve({}).get('timeScale')).toBe(1);
    expect(resolve({}, { SVC_TIME_SCALE: '6' }).source('timeScale')).toBe('SVC_TIME_SCALE');
    expect(resolve({}).source('timeScale')).toBeUndefined();
  });

  it('reads each kind from its variable: text, comma-separated list, switch (1/0/true/false, any case)', () => {
    const o = resolve({}, { SVC_NAME: ' x ', SVC_TAG: 'a, b,,c', SVC_LOUD: 'TRUE' });
    expect([o.get('name'), o.get('tag'), o.get('loud')]).toEqual(['x', ['a', 'b', 'c'], true]);
    expect(resolve({}, { SVC_LOUD: '0' }).get('loud')).toBe(false);
    expect(resolve({ loud: true }, { SVC_LOUD: '0' }).get('loud')).toBe(true);
  });

  it('a negated switch: SVC_NO_INJECT=1 is --no-inject; commander\'s implicit true is not "given"', () => {
    expect(resolve({ inject: true }, { SVC_NO_INJECT: '1' }).get('inject')).toBe(false);
    expect(resolve({ inject: true }, { SVC_NO_INJECT: 'false' }).get('inject')).toBe(true);
    expect(resolve({ inject: false }).get('inject')).toBe(false);
    expect(resolve({ inject: true }).get('inject')).toBeUndefined();
  });

  it('refuses a bad value with one line naming where it was given', () => {
    expect(errorOf(() => resolve({}, { SVC_LOUD: 'yes' }))).toBe(
      'SVC_LOUD must be 1, 0, true or false (got "yes"); e.g. SVC_LOUD=1 for --loud',
    );
    expect(errorOf(() => resolve({}, { SVC_TIME_SCALE: '0' }))).toBe('SVC_TIME_SCALE must be a number > 0 (got "0")');
    expect(errorOf(() => resolve({ name: '  ' }))).toBe('--name is empty; give a value or leave it out');
  });

  it('refuses an option that has no effect without the one it requires, from any source', () => {
    expect(errorOf(() => resolve({ key: 'k' }))).toBe(
      '--key has no effect without --target (SVC_TARGET): without a target nobody reads it; give --target (SVC_TARGET) or leave --key out',
    );
    expect(errorOf(() => resolve({}, { SVC_KEY: 'k' }))).toMatch(/^SVC_KEY has no effect without --target/);
    expect(resolve({ key: 'k' }, { SVC_TARGET: 't' }).get('key')).toBe('k');
  });

  it('types each value from its entry', () => {
    const o = resolve({});
    const scale: number = o.get('timeScale');
    const tags: string[] | undefined = o.get('tag');
    // @ts-expect-error a validator returning number gives a number, never a string
    const wrong: string | undefined = o.get('timeScale');
    // @ts-expect-error an entry without a default may be undefined
    const name: string = o.get('name');
    // @ts-expect-error no such key in the table
    o.get('nope');
    expect([scale, tags, wrong, name]).toEqual([1, undefined, 1, undefined]);
  });
});

describe('a renamed variable', () => {
  const PORT = [
    {
      key: 'port',
      flag: '--port',
      arg: '<n>',
      kind: 'string',
      env: 'SVC_PORT_NUMBER',
      formerEnv: 'SVC_PORT',
      default: '0',
      description: 'port',
    },
  ] as const satisfies readonly OptionSpec[];
  const resolve = (env: Record<string, string>) => resolveOptions(PORT, { flags: {}, env });

  it('reads the new name first, then the former name, naming which one gave the value', () => {
    const both = resolve({ SVC_PORT_NUMBER: '9090', SVC_PORT: '8080' });
    expect([both.get('port'), both.source('port')]).toEqual(['9090', 'SVC_PORT_NUMBER']);
    const former = resolve({ SVC_PORT: '8080' });
    expect([former.get('port'), former.source('port')]).toEqual(['8080', 'SVC_PORT']);
  });

  it("never reads Kubernetes' value for a Service named svc (tcp://…): the default stands", () => {
    const k8s = resolve({ SVC_PORT: 'tcp://10.96.0.12:80' });
    expect([k8s.get('port'), k8s.source('port')]).toEqual(['0', undefined]);
  });
});
