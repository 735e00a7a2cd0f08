// Declares the options of an option table (src/config/option-spec.ts) on a commander command, so
// that --help, the parsed flags and the loaders read the same entries. Defaults are not commander's:
// a flag commander filled in would beat the environment variable, so resolve-options.ts applies them.

import { Option, type Command } from './commander.js';
import { flagsOf, helpOf, type OptionSpec } from '../config/option-spec.js';

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

export function addOptions(command: Command, specs: readonly OptionSpec[]): Command {
  for (const spec of specs) {
    const option = new Option(flagsOf(spec), helpOf(spec));
    if (spec.repeatable) option.argParser(collect);
    command.addOption(option);
  }
  return command;
}
