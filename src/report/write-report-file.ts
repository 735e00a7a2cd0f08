// A report file is written to a temporary file of its own in the report folder (created exclusively,
// so no link already in place is followed), then renamed over its name: a symlink left in the report
// folder (`summary.md -> ../victim.txt`) is replaced, never written through, and a reader never sees
// half a report.

import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Writes one report file into the report dir, creating the dir (and its parents) first. */
export async function writeReportFile(reportDir: string, fileName: string, content: string): Promise<string> {
  await mkdir(reportDir, { recursive: true });
  const path = join(reportDir, fileName);
  const temporary = join(reportDir, `.${fileName}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    // 'wx': O_CREAT | O_EXCL, which refuses any existing name, a symlink included.
    await writeFile(temporary, content, { encoding: 'utf8', flag: 'wx' });
    await rename(temporary, path);
  } catch (e) {
    await rm(temporary, { force: true });
    throw e;
  }
  return path;
}
