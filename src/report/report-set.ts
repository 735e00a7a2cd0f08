// The report files of one certification are one set: a reader (a person, a CI step uploading the
// folder) must never find this run's junit.xml beside the previous run's report.html. So every
// report is first written into a hidden folder of its own inside the report folder, and only when
// the whole set is there are its files moved into place, each by a rename (atomic, and it needs no
// free space). A write that fails (a full disk, a quota, a permission) removes the new set and leaves
// the previous one whole. Should a move fail half-way, the files of the set are removed and one
// line, REPORTS-INCOMPLETE.txt, says why: an honest empty folder rather than a mix.
//
// Inside the report folder rather than beside it: the same filesystem by construction (a report
// folder that is a mount point, a tmpfs say, makes a rename from beside it fail with EXDEV), and a
// place already proven writable (report-dir.ts), where its parent may not be (`--report-dir /tmp`).

import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errnoOrMessage } from '../narrow.js';

export const INCOMPLETE_NOTE = 'REPORTS-INCOMPLETE.txt';
const SET_PREFIX = '.svc-certify-set-';

/** Reports that could not be written as a set: exit 2 with one line (src/cli/main.ts). */
export class ReportWriteError extends Error {
  override readonly name = 'ReportWriteError';
}

interface ReportSet {
  /** Where the reporters write this set. */
  readonly dir: string;
  /** Moves every file of the set into the report folder. */
  commit(): Promise<string[]>;
  /** Removes the set; the report folder keeps what it held. */
  abandon(): Promise<void>;
}

/** The file system calls a set makes, replaceable in tests to fail one of them. */
export interface SetFs {
  mkdir: (path: string) => Promise<unknown>;
  readdir: (path: string) => Promise<string[]>;
  rename: (from: string, to: string) => Promise<void>;
  rm: (path: string, opts: { recursive?: boolean; force: boolean }) => Promise<void>;
  writeFile: (path: string, text: string) => Promise<void>;
}

const NODE_FS: SetFs = {
  mkdir: (path) => mkdir(path),
  readdir: (path) => readdir(path),
  rename,
  rm,
  writeFile: (path, text) => writeFile(path, text, 'utf8'),
};

async function openReportSet(reportDir: string, fs: SetFs = NODE_FS): Promise<ReportSet> {
  const dir = join(reportDir, `${SET_PREFIX}${process.pid}-${randomBytes(6).toString('hex')}`);
  await fs.mkdir(dir).catch((e: unknown) => {
    throw new ReportWriteError(
      `reports not written to ${reportDir} (${errnoOrMessage(e)}); the reports already there are as they were`,
    );
  });
  const abandon = (): Promise<void> => fs.rm(dir, { recursive: true, force: true }).catch(() => undefined);
  return {
    dir,
    abandon,
    async commit() {
      const names = (await fs.readdir(dir)).filter((n) => !n.startsWith('.')).sort();
      const moved: string[] = [];
      try {
        for (const name of names) {
          await fs.rename(join(dir, name), join(reportDir, name));
          moved.push(name);
        }
      } catch (e) {
        // A mix of two sets is worse than none: the set's names go, and the folder says why.
        for (const name of names) await fs.rm(join(reportDir, name), { force: true }).catch(() => undefined);
        await abandon();
        const why = `reports not written to ${reportDir} (${errnoOrMessage(e)} after ${moved.length} of ${names.length} files were moved into place)`;
        await fs
          .writeFile(join(reportDir, INCOMPLETE_NOTE), `${why}: the set is incomplete and was removed; run again\n`)
          .catch(() => undefined);
        throw new ReportWriteError(`${why}; the folder holds none of the set, and ${INCOMPLETE_NOTE} says so`);
      }
      await abandon();
      // A set written whole makes an earlier note untrue.
      await fs.rm(join(reportDir, INCOMPLETE_NOTE), { force: true }).catch(() => undefined);
      return moved;
    },
  };
}

/**
 * Runs `write` (the reporters) into a new set and moves it into place, or, when a write fails,
 * removes the set and throws a ReportWriteError naming the cause: the previous set stays whole.
 */
export async function writeReportSet(
  reportDir: string,
  write: (setDir: string) => Promise<void>,
  fs: SetFs = NODE_FS,
): Promise<string[]> {
  const set = await openReportSet(reportDir, fs);
  try {
    await write(set.dir);
  } catch (e) {
    await set.abandon();
    // A defect of a reporter stays an internal error; the file system's refusals are the operator's.
    if (typeof (e as { code?: unknown } | null)?.code !== 'string') throw e;
    throw new ReportWriteError(
      `reports not written to ${reportDir} (${errnoOrMessage(e)}); the reports already there are as they were`,
    );
  }
  return set.commit();
}
