// The scan of everything the user named: files one after the other (bounded memory: one file's
// window at a time), findings into a bounded collector.

import { FindingCollector } from './collector.js';
import { scanFile } from './scan-file.js';
import { checkPaths, walkFiles } from './walk.js';

export interface ScanOutcome {
  files: number;
  bytes: number;
  collector: FindingCollector;
}

export async function scanPaths(paths: readonly string[], opts: { findingLimit?: number } = {}): Promise<ScanOutcome> {
  await checkPaths(paths);
  const collector = new FindingCollector(opts.findingLimit);
  let files = 0;
  let bytes = 0;
  for await (const file of walkFiles(paths)) {
    bytes += await scanFile(file, (f) => collector.add(f));
    files += 1;
  }
  return { files, bytes, collector };
}
