// `--help` and each command build only the options of the command that runs: the others keep their
// name and description, so the command list and suggestions are unchanged.

import { describe, expect, it } from 'vitest';
import { addOptions } from './add-options.js';
import { COMMAND_OPTIONS } from './command-options.js';
import { buildProgram, commandOf } from './main.js';

describe('the command a command line runs', () => {
  it('is the first word, or the word after help; none for a bare flag', () => {
    expect(commandOf(['node', 'svc-certify', 'run', '--quiet'])).toBe('run');
    expect(commandOf(['node', 'svc-certify', 'help', 'serve'])).toBe('serve');
    expect(commandOf(['node', 'svc-certify', '--help'])).toBeUndefined();
    expect(commandOf(['node', 'svc-certify'])).toBeUndefined();
  });

  it('gets its options; the other commands keep only their name and description', () => {
    const program = buildProgram(
      () => {},
      () => {},
      { tables: { serve: COMMAND_OPTIONS.serve }, addOptions },
    );
    const byName = new Map(program.commands.map((c) => [c.name(), c]));
    expect(byName.get('serve')?.options.map((o) => o.long)).toContain('--port');
    expect(byName.get('run')?.options).toEqual([]);
    expect(byName.get('run')?.description()).toMatch(/certify a target/);
    expect([...byName.keys()]).toEqual(
      buildProgram(
        () => {},
        () => {},
        { tables: COMMAND_OPTIONS, addOptions },
      ).commands.map((c) => c.name()),
    );
  });
});
