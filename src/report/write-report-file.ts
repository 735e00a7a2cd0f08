// A report file is written to a temporary file of its own in the report folder (created exclusively,
// so no link already in place is followed), then renamed over its name: a symlink left in the report
// folder (`summary.md -> ../victim.txt`) is replaced, never written through, and a reader never sees
// half a report.

import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Writes one report file into the report dir, creating the dir (and its parents) first. */
export async function writeReportFile(reportDir: string, fileName: string, content: string): Promise<string> {
  return writeThroughTemporary(reportDir, fileName, (temporary) =>
    // 'wx': O_CREAT | O_EXCL, which refuses any existing name, a symlink included.
    writeFile(temporary, content, { encoding: 'utf8', flag: 'wx' }),
  );
}

/** Text gathered up to this size before it is written: a few large writes rather than one per check. */
const CHUNK_WRITE_BYTES = 256 * 1024;

/**
 * Writes one report file from its text in pieces (a dossier rendered part by part): only a piece at a
 * time is held, never the whole text. The pieces are taken in turns of the event loop, so a signal is
 * seen while a long report is written.
 */
export async function writeReportFileChunks(
  reportDir: string,
  fileName: string,
  chunks: Iterable<string>,
): Promise<string> {
  return writeThroughTemporary(reportDir, fileName, async (temporary) => {
    const file = await open(temporary, 'wx');
    try {
      let pending: string[] = [];
      let size = 0;
      for (const chunk of chunks) {
        pending.push(chunk);
        size += chunk.length;
        if (size < CHUNK_WRITE_BYTES) continue;
        await file.writeFile(pending.join(''), 'utf8');
        pending = [];
        size = 0;
      }
      if (size > 0) await file.writeFile(pending.join(''), 'utf8');
    } finally {
      await file.close();
    }
  });
}

async function writeThroughTemporary(
  reportDir: string,
  fileName: string,
  write: (temporary: string) => Promise<void>,
): Promise<string> {
  await mkdir(reportDir, { recursive: true });
  const path = join(reportDir, fileName);
  const temporary = join(reportDir, `.${fileName}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await write(temporary);
    await rename(temporary, path);
  } catch (e) {
    await rm(temporary, { force: true });
    throw e;
  }
  return path;
}
