import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Writes one report file into the report dir, creating the dir (and its parents) first. */
export async function writeReportFile(reportDir: string, fileName: string, content: string): Promise<string> {
  await mkdir(reportDir, { recursive: true });
  const path = join(reportDir, fileName);
  await writeFile(path, content, 'utf8');
  return path;
}
