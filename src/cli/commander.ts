// commander is CommonJS: required directly it skips its ESM wrapper and the export scan Node runs on a
// CommonJS module imported from ESM, a measurable share of a `--help` that loads little else.

import { createRequire } from 'node:module';

const commander = createRequire(import.meta.url)('commander') as typeof import('commander');

export const { Command, CommanderError, Option } = commander;
export type Command = import('commander').Command;
