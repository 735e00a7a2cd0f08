// The option table of every command, in one place: main.ts declares each command's flags from it,
// scrubs the secrets it marks from any error of the command that ran, and knows every SVC_* variable
// from it (an unknown one gets a warning); docs/reference/options.md is generated from it
// (npm run docs:gen) and checked against it by a test.

import { envOf, type OptionSpec } from '../config/option-spec.js';
import { oneOf } from '../config/validators.js';
import { REPORT_OPTIONS, RUN_OPTIONS } from '../config/run-options.js';
import { RECEIVER_OPTIONS } from './receiver-options.js';
import { PARTNER_OPTIONS, SERVE_OPTIONS } from './sandbox-options.js';

export const LIST_OPTIONS = [
  {
    key: 'command',
    flag: '--command',
    arg: '<name>',
    kind: 'list',
    repeatable: true,
    description: 'only the checks of this command: run, partner, receiver or scan (repeatable)',
  },
  {
    key: 'suite',
    flag: '--suite',
    arg: '<name>',
    kind: 'list',
    repeatable: true,
    description: 'only this suite (repeatable)',
  },
  {
    key: 'grep',
    flag: '--grep',
    arg: '<text>',
    kind: 'string',
    description: 'only checks whose id or title contains the text',
  },
  {
    key: 'bySpec',
    flag: '--by-spec',
    kind: 'boolean',
    description: 'traceability matrix: every spec section and the checks citing it',
  },
  {
    key: 'json',
    flag: '--json',
    kind: 'boolean',
    description: 'the selected checks as JSON on stdout: {"checks": [{command, suite, id, title, spec, needs}]}',
  },
] as const satisfies readonly OptionSpec[];

export const BASELINE_OPTIONS = [
  {
    key: 'until',
    flag: '--until',
    arg: '<date>',
    kind: 'string',
    description: 'YYYY-MM-DD, the last day the entries are honoured (default: 30 days from today)',
  },
] as const satisfies readonly OptionSpec[];

export const VERIFY_OPTIONS = [
  {
    key: 'key',
    flag: '--key',
    arg: '<file>',
    kind: 'string',
    description: "the signer's Ed25519 public key (PEM); required",
  },
  {
    key: 'results',
    flag: '--results',
    arg: '<file>',
    kind: 'string',
    description: 'also check that this results.json is the one the record signs',
  },
] as const satisfies readonly OptionSpec[];

const OPENAPI_FORMATS = ['yaml', 'json'] as const;

export const OPENAPI_OPTIONS = [
  {
    key: 'format',
    flag: '--format',
    arg: '<format>',
    kind: 'string',
    default: 'yaml',
    validate: oneOf(OPENAPI_FORMATS),
    description: 'yaml or json',
  },
] as const satisfies readonly OptionSpec[];

export const COMMAND_OPTIONS = {
  run: RUN_OPTIONS,
  serve: SERVE_OPTIONS,
  partner: [...PARTNER_OPTIONS, ...REPORT_OPTIONS],
  receiver: [...RECEIVER_OPTIONS, ...REPORT_OPTIONS],
  scan: REPORT_OPTIONS,
  report: REPORT_OPTIONS,
  baseline: BASELINE_OPTIONS,
  verify: VERIFY_OPTIONS,
  list: LIST_OPTIONS,
  openapi: OPENAPI_OPTIONS,
} as const satisfies Record<string, readonly OptionSpec[]>;

/** The table of a command named on the command line; none for an unknown word (commander refuses it). */
export function optionsOfCommand(name: string | undefined): readonly OptionSpec[] {
  const entry = Object.entries(COMMAND_OPTIONS).find(([command]) => command === name);
  return entry ? entry[1] : [];
}

/** The variables that are not options: read by the CLI itself. */
export const OTHER_VARIABLES = [
  { name: 'SVC_DEBUG', meaning: 'any value: an internal error also prints its (redacted) stack' },
] as const;

/** Every SVC_* variable svc-certify reads: each option's, of every command, its former name, and the CLI's own. */
export function knownEnvVars(): string[] {
  const names = Object.values(COMMAND_OPTIONS).flatMap((specs) => specs.map(envOf));
  const former = renamedEnvVars().map((r) => r.former);
  return [...new Set([...names, ...former, ...OTHER_VARIABLES.map((v) => v.name)])].sort();
}

/** The variables renamed in this release (formerEnv of the tables), each once. */
export function renamedEnvVars(): Array<{ former: string; current: string }> {
  const seen = new Map<string, string>();
  for (const spec of Object.values(COMMAND_OPTIONS).flat())
    if ('formerEnv' in spec && spec.formerEnv) seen.set(spec.formerEnv, envOf(spec));
  return [...seen].map(([former, current]) => ({ former, current }));
}
