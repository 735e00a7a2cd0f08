import { describe, expect, it } from 'vitest';
import { envOf, helpOf, type OptionSpec } from '../config/option-spec.js';
import { addOptions } from './add-options.js';
import { COMMAND_OPTIONS, knownEnvVars, renamedEnvVars } from './command-options.js';
import { isKubernetesShapedName } from '../config/k8s-env.js';
import { buildProgram } from './main.js';

const program = buildProgram(
  () => undefined,
  () => undefined,
  { tables: COMMAND_OPTIONS, addOptions },
);
const command = (name: string) => {
  const found = program.commands.find((c) => c.name() === name);
  if (!found) throw new Error(`no command ${name}`);
  return found;
};
const TABLES: Array<[string, readonly OptionSpec[]]> = Object.entries(COMMAND_OPTIONS);

/** Each option commander knows, as the table would declare it. */
function declared(name: string) {
  return command(name).options.map((o) => ({
    flag: o.long,
    key: o.attributeName(),
    help: o.description,
    repeatable: o.variadic || o.parseArg !== undefined,
  }));
}

function expected(specs: readonly OptionSpec[]) {
  return specs.map((s) => ({ flag: s.flag, key: s.key, help: helpOf(s), repeatable: s.repeatable === true }));
}

describe('one option table per command drives commander', () => {
  it('every command of the program has a table, and every table a command', () => {
    expect(TABLES.map(([name]) => name).sort()).toEqual(program.commands.map((c) => c.name()).sort());
  });

  it.each(TABLES)(
    '%s: every table entry is a flag with its key and help, and every flag is in the table',
    (name, specs) => {
      expect(declared(name)).toEqual(expected(specs));
    },
  );

  it.each(TABLES)('%s --help names the environment variable of every option', (name, specs) => {
    const help = command(name).helpInformation();
    for (const spec of specs) expect(help).toContain(`[${envOf(spec)}`);
  });

  it.each(TABLES)(
    '%s: no two options share a key, a flag or an environment variable; a key is the camelCase of its flag',
    (_name, specs) => {
      expect(new Set(specs.map((s) => s.key)).size).toBe(specs.length);
      expect(new Set(specs.map((s) => s.flag)).size).toBe(specs.length);
      expect(new Set(specs.map(envOf)).size).toBe(specs.length);
      for (const s of specs) {
        const camel = s.flag.replace(/^--(no-)?/, '').replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
        expect(s.key).toBe(camel);
      }
    },
  );

  it('a flag means one thing everywhere: the same flag has the same variable, kind and secrecy in every command', () => {
    const seen = new Map<string, { env: string; kind: string; secret: boolean }>();
    for (const [, specs] of TABLES) {
      for (const s of specs) {
        const facts = { env: envOf(s), kind: s.kind, secret: s.secret === true };
        expect(seen.get(s.flag) ?? facts, s.flag).toEqual(facts);
        seen.set(s.flag, facts);
      }
    }
  });

  it('an environment variable is SVC_ + the flag in upper snake case, but for the name kept from before and the names Kubernetes injects', () => {
    const derived = (s: OptionSpec) => `SVC_${s.flag.slice(2).replace(/-/g, '_').toUpperCase()}`;
    const exceptions = TABLES.flatMap(([, specs]) =>
      specs.filter((s) => envOf(s) !== derived(s)).map((s) => `${s.flag}=${envOf(s)}`),
    );
    expect([...new Set(exceptions)].sort()).toEqual([
      '--activation-code=SVC_ACTIVATION_CODES',
      '--port=SVC_PORT_NUMBER',
      '--url=SVC_RECEIVER_URL',
    ]);
  });

  it('no option variable is a name Kubernetes injects for a Service (SVC_PORT, SVC_SERVICE_HOST, SVC_PORT_80_TCP…)', () => {
    const injected = TABLES.flatMap(([, specs]) => specs.map(envOf)).filter(isKubernetesShapedName);
    expect(injected).toEqual([]);
    // The shapes themselves, for a Service named svc and one named svc-certify.
    for (const name of ['SVC_PORT', 'SVC_SERVICE_HOST', 'SVC_SERVICE_PORT', 'SVC_SERVICE_PORT_HTTP', 'SVC_PORT_80_TCP'])
      expect(isKubernetesShapedName(name), name).toBe(true);
    for (const name of ['SVC_CERTIFY_PORT', 'SVC_CERTIFY_PORT_8080_TCP_ADDR', 'SVC_CERTIFY_SERVICE_HOST'])
      expect(isKubernetesShapedName(name), name).toBe(true);
  });

  it('a renamed variable keeps its former name for one release: the table names it, and it is a known variable', () => {
    expect(renamedEnvVars()).toEqual([
      { former: 'SVC_PORT', current: 'SVC_PORT_NUMBER' },
      { former: 'SVC_URL', current: 'SVC_RECEIVER_URL' },
    ]);
    expect(knownEnvVars()).toEqual(
      expect.arrayContaining(['SVC_PORT', 'SVC_URL', 'SVC_PORT_NUMBER', 'SVC_RECEIVER_URL']),
    );
  });

  it('a requirement names an option of the same table', () => {
    for (const [, specs] of TABLES) {
      for (const s of specs) if (s.requires) expect(specs.map((x) => x.key)).toContain(s.requires.key);
    }
  });
});
