// The table of every environment variable in docs/reference/options.md, from the option tables (command-options.ts):
// one row per variable with its flag, the commands that read it, its kind and whether it is a secret.
// src/cli/reference-pages.test.ts keeps the page equal to what this writes, so it cannot drift.

import { envOf, type OptionSpec } from '../config/option-spec.js';
import { COMMAND_OPTIONS, OTHER_VARIABLES, renamedEnvVars } from './command-options.js';

const KIND: Record<OptionSpec['kind'], string> = {
  string: 'text',
  list: 'comma-separated list',
  boolean: '`1`/`0`/`true`/`false`',
};

const cell = (text: string): string => text.replace(/\|/g, '\\|');

export function envTableMarkdown(): string {
  const rows = new Map<string, { spec: OptionSpec; commands: string[] }>();
  for (const [command, specs] of Object.entries<readonly OptionSpec[]>(COMMAND_OPTIONS)) {
    for (const spec of specs) {
      const env = envOf(spec);
      const row = rows.get(env) ?? { spec, commands: [] };
      row.commands.push(command);
      rows.set(env, row);
    }
  }
  const lines = ['| variable | flag | commands | value | meaning |', '| --- | --- | --- | --- | --- |'];
  for (const [env, { spec, commands }] of rows) {
    const value = `${KIND[spec.kind]}${spec.secret ? ', **secret** (redacted everywhere)' : ''}${spec.default !== undefined ? `, default \`${spec.default}\`` : ''}`;
    lines.push(`| \`${env}\` | \`${spec.flag}\` | ${commands.join(', ')} | ${value} | ${cell(spec.description)} |`);
  }
  for (const { former, current } of renamedEnvVars()) {
    const row = rows.get(current);
    if (!row) continue;
    lines.push(
      `| \`${former}\` | \`${row.spec.flag}\` | ${row.commands.join(', ')} | deprecated | the name of \`${current}\` before this release, read (with a warning) when \`${current}\` is not set and its value is not the \`tcp://…\` Kubernetes sets for a Service named \`svc\` |`,
    );
  }
  for (const v of OTHER_VARIABLES) lines.push(`| \`${v.name}\` | | all | text | ${cell(v.meaning)} |`);
  return lines.join('\n');
}
