import { describe, expect, it } from 'vitest';
import { helpOf, type OptionSpec } from '../config/option-spec.js';
import { REPORT_OPTIONS, RUN_OPTIONS } from '../config/run-options.js';
import { buildProgram } from './main.js';
import { RECEIVER_OPTIONS } from './receiver-options.js';
import { PARTNER_OPTIONS, SANDBOX_OPTIONS, SERVE_ONLY_OPTIONS } from './sandbox-options.js';

const program = buildProgram(() => undefined, () => undefined);
const command = (name: string) => program.commands.find((c) => c.name() === name)!;

/** Each option commander knows, as the table would declare it. */
function declared(name: string) {
  return command(name).options.map((o) => ({ flag: o.long, key: o.attributeName(), help: o.description, repeatable: o.variadic || o.parseArg !== undefined }));
}

function expected(specs: readonly OptionSpec[]) {
  return specs.map((s) => ({ flag: s.flag, key: s.key, help: helpOf(s), repeatable: s.repeatable === true }));
}

describe('commander options come from the option tables', () => {
  it.each([
    ['run', RUN_OPTIONS],
    ['serve', [...SANDBOX_OPTIONS, ...SERVE_ONLY_OPTIONS]],
    ['partner', [...PARTNER_OPTIONS, ...REPORT_OPTIONS]],
    ['receiver', [...RECEIVER_OPTIONS, ...REPORT_OPTIONS]],
    ['scan', REPORT_OPTIONS],
    ['report', REPORT_OPTIONS],
  ] as const)('%s: every table entry is a flag with its key and help, and every flag is in the table', (name, specs) => {
    expect(declared(name)).toEqual(expected(specs));
  });

  it('every run option with an environment variable names it in --help', () => {
    for (const spec of RUN_OPTIONS.filter((s) => s.env)) expect(command('run').helpInformation()).toContain(`[${spec.env}`);
  });

  it('keys and flags are unique, and a key is the camelCase of its flag', () => {
    for (const specs of [RUN_OPTIONS, [...SANDBOX_OPTIONS, ...SERVE_ONLY_OPTIONS], PARTNER_OPTIONS, RECEIVER_OPTIONS]) {
      expect(new Set(specs.map((s) => s.key)).size).toBe(specs.length);
      expect(new Set(specs.map((s) => s.flag)).size).toBe(specs.length);
      for (const s of specs) {
        const camel = s.flag.replace(/^--(no-)?/, '').replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
        expect(s.key).toBe(camel);
      }
    }
  });
});
