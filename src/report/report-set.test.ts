import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INCOMPLETE_NOTE, ReportWriteError, writeReportSet, type SetFs } from './report-set.js';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';

const SET = ['junit.xml', 'report.html', 'results.json', 'summary.md'];

/** A report folder holding a previous set, each file saying which run wrote it. */
function folderWithPreviousSet(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-report-set-'));
  for (const name of SET) writeFileSync(join(dir, name), `previous ${name}`);
  return dir;
}

function contents(dir: string): Record<string, string> {
  return Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name), 'utf8')]));
}

const enospc = (): NodeJS.ErrnoException =>
  Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

/** The new set, written file by file; the file named `failAt` fails as a full disk does. */
function writeSet(failAt?: string) {
  return async (setDir: string): Promise<void> => {
    for (const name of SET) {
      if (name === failAt) throw enospc();
      writeFileSync(join(setDir, name), `new ${name}`);
    }
  };
}

const nodeFs: SetFs = {
  mkdir: (p) => mkdir(p),
  readdir: (p) => readdir(p),
  rename,
  rm,
  writeFile: (p, t) => writeFile(p, t, 'utf8'),
};

describe('writeReportSet', () => {
  it('moves a whole new set into place and leaves no set folder behind', async () => {
    const dir = folderWithPreviousSet();
    await expect(writeReportSet(dir, writeSet())).resolves.toEqual(SET);
    expect(contents(dir)).toEqual(Object.fromEntries(SET.map((n) => [n, `new ${n}`])));
  });

  it('keeps the previous set whole when a write fails half-way (a full disk)', async () => {
    const dir = folderWithPreviousSet();
    const before = contents(dir);
    const failed = await writeReportSet(dir, writeSet('results.json')).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ReportWriteError);
    expect((failed as Error).message).toMatch(/ENOSPC.*the reports already there are as they were/);
    expect(contents(dir)).toEqual(before);
  });

  it('removes the set and says so in the folder when a move into place fails half-way', async () => {
    const dir = folderWithPreviousSet();
    let renames = 0;
    const failingMove: SetFs = {
      ...nodeFs,
      rename: async (from, to) => {
        if (++renames === 3) throw Object.assign(new Error('EIO: i/o error, rename'), { code: 'EIO' });
        await rename(from, to);
      },
    };
    const failed = await writeReportSet(dir, writeSet(), failingMove).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ReportWriteError);
    // Neither set, mixed or not: only the note.
    expect(readdirSync(dir)).toEqual([INCOMPLETE_NOTE]);
    expect(readFileSync(join(dir, INCOMPLETE_NOTE), 'utf8')).toMatch(/EIO.*after 2 of 4 files.*incomplete/);
    // The next set written whole takes the note away.
    await writeReportSet(dir, writeSet());
    expect(readdirSync(dir).sort()).toEqual(SET);
  });

  it('lets a defect of a reporter through as what it is, after removing the set', async () => {
    const dir = folderWithPreviousSet();
    const bug = new TypeError('cannot read x of undefined');
    await expect(
      writeReportSet(dir, async () => {
        throw bug;
      }),
    ).rejects.toBe(bug);
    expect(readdirSync(dir).sort()).toEqual(SET);
  });
});
