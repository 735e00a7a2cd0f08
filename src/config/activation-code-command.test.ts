import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codesFromCommand } from './activation-code-command.js';

const CODES = ['SVC-ABCD-EFGH', 'SVC-JKMN-PQRS', 'SVC-TUVW-XYZ2'];

/** A helper that hands out the codes of a file one per call, counting its calls in another file. */
function helper(): { cmd: string; calls: () => number } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-code-cmd-'));
  const list = join(dir, 'codes.txt');
  const count = join(dir, 'calls.txt');
  writeFileSync(list, CODES.join('\n'));
  writeFileSync(count, '0');
  const script = join(dir, 'next-code.cjs');
  writeFileSync(
    script,
    `const fs = require('fs'); const n = Number(fs.readFileSync(${JSON.stringify(count)}, 'utf8'));
     fs.writeFileSync(${JSON.stringify(count)}, String(n + 1));
     process.stdout.write(fs.readFileSync(${JSON.stringify(list)}, 'utf8').split('\\n')[n] + '\\nsecond line ignored\\n');`,
  );
  return {
    cmd: `"${process.execPath}" "${script}"`,
    calls: () => Number(readFileSync(count, 'utf8')),
  };
}

async function refusal(cmd: string, count = 1, timeoutMs?: number): Promise<Error> {
  try {
    await codesFromCommand(cmd, count, timeoutMs !== undefined ? { timeoutMs } : {});
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a refusal');
}

describe('--activation-code-command', () => {
  it('runs the command once for each code and takes the first line of each answer', async () => {
    const h = helper();
    expect(await codesFromCommand(h.cmd, 3)).toEqual(CODES);
    expect(h.calls()).toBe(3);
  });

  it('normalizes a code printed as a person types it', async () => {
    expect(await codesFromCommand(`printf ' svc abcd efgh \\n'`, 1)).toEqual(['SVC-ABCD-EFGH']);
  });

  it('is never run when no code is needed', async () => {
    const h = helper();
    expect(await codesFromCommand(h.cmd, 0)).toEqual([]);
    expect(h.calls()).toBe(0);
  });

  it.each([
    [
      'a non-zero exit, with the helper’s reason',
      `echo 'vault sealed' >&2; exit 3`,
      /^--activation-code-command exited with status 3: vault sealed$/,
    ],
    ['nothing printed', 'true', /^--activation-code-command printed no activation code on its first line/],
    [
      'no code on the first line',
      `echo 'SVC-ABCD-EFG0'`,
      /^--activation-code-command printed a first line that is not an activation code SVC-XXXX-XXXX \(13 characters, starting "SVC-"\)$/,
    ],
    ['a command that does not exist', 'svc-no-such-helper-xyz', /^--activation-code-command exited with status 127/],
  ])('refuses %s: a set-up error of one line (exit 2)', async (_name, cmd, line) => {
    const e = await refusal(cmd);
    expect(e.name).toBe('ConfigError');
    expect(e.message).toMatch(line);
    expect(e.message).not.toContain('\n');
  });

  it('refuses a helper that hands out the same code twice, naming the call', async () => {
    const e = await refusal(`echo SVC-ABCD-EFGH`, 2);
    expect(e.message).toMatch(/^--activation-code-command \(call 2 of 2\) printed a code it already handed out/);
    expect(e.message).not.toContain('ABCD-EFGH');
  });

  it('never shows a code in full, not even one the helper printed to stderr', async () => {
    const e = await refusal(`echo 'SVC-ABCD-EFGH was already used' >&2; exit 1`);
    expect(e.message).toBe('--activation-code-command exited with status 1: SVC-… was already used');
  });

  it('ends a helper that hangs at its time-out', async () => {
    const e = await refusal('sleep 30', 1, 300);
    expect(e.message).toBe('--activation-code-command gave no code within 0.3 s: it must print one and exit');
  });
});
