// docs/reference/options.md: every option of every command, generated from the option tables
// (command-options.ts), with its variable, its key in svc-certify.config.json (run only) and what it
// needs to have an effect, then the table of every variable. A test keeps the page equal to this.

import { envOf, flagsOf, type OptionSpec } from '../config/option-spec.js';
import { COMMAND_OPTIONS } from './command-options.js';
import { envTableMarkdown } from './env-table.js';
import { cell, code, generatedNotice, table } from './reference-markdown.js';

/** Only `run` reads svc-certify.config.json; its keys are the table's keys. */
const READS_CONFIG_FILE: ReadonlySet<string> = new Set(['run']);

const KIND: Record<OptionSpec['kind'], string> = {
  string: 'value',
  list: 'list (comma-separated variable)',
  boolean: 'switch',
};

function valueOf(spec: OptionSpec): string {
  const parts = [KIND[spec.kind]];
  if (spec.repeatable) parts.push('repeatable');
  if (spec.secret) parts.push('**secret**');
  if (spec.default !== undefined) parts.push(`default ${code(spec.default)}`);
  return parts.join(', ');
}

function meaningOf(spec: OptionSpec, specs: readonly OptionSpec[]): string {
  const needed = spec.requires && specs.find((s) => s.key === spec.requires?.key);
  const needs = spec.requires && needed ? ` Needs ${code(needed.flag)}: ${spec.requires.why}.` : '';
  const sentence = /[.!?]$/.test(spec.description) ? spec.description : `${spec.description}.`;
  return cell(`${sentence}${needs}`);
}

function commandSection(command: string, specs: readonly OptionSpec[]): string {
  const withKey = READS_CONFIG_FILE.has(command);
  const head = ['flag', 'variable', ...(withKey ? ['config key'] : []), 'value', 'meaning'];
  const rows = specs.map((spec) => [
    code(flagsOf(spec)),
    code(envOf(spec)),
    ...(withKey ? [code(spec.key)] : []),
    valueOf(spec),
    meaningOf(spec, specs),
  ]);
  return [`## ${code(`svc-certify ${command}`)}`, '', table(head, rows)].join('\n');
}

export function optionsReferenceMarkdown(): string {
  const commands = Object.entries<readonly OptionSpec[]>(COMMAND_OPTIONS);
  return [
    '# Options reference',
    '',
    generatedNotice('the option tables (`src/cli/command-options.ts`)'),
    '',
    'Every option of every command, as `--help` shows it. Each has an environment variable: `SVC_` + the',
    'flag in upper snake case (`--exhaust-limits` → `SVC_EXHAUST_LIMITS`; `--activation-code` keeps its older',
    'plural `SVC_ACTIVATION_CODES`). A flag beats its variable; for `run` the variable beats the key in',
    "`svc-certify.config.json` (in the working directory), which beats the default. A switch's variable takes",
    "`1`, `0`, `true` or `false` (any case); a list's takes comma-separated values; an empty variable counts as",
    'not set. An unknown key, a malformed value, or an option given without the one it needs stops with exit 2',
    'and one line saying what to fix. An `SVC_*` variable svc-certify does not know gets one warning line',
    'naming the nearest known one. Secrets are redacted from every output of every command, in every form',
    '(plain, percent-encoded, `\\u`-escaped, base64 including HTTP Basic, any case).',
    '',
    `Commands: ${commands.map(([c]) => `[${c}](#svc-certify-${c})`).join(', ')}; [every variable](#environment-variables).`,
    '',
    ...commands.flatMap(([command, specs]) => [commandSection(command, specs), '']),
    '## Environment variables',
    '',
    envTableMarkdown(),
    '',
  ].join('\n');
}
