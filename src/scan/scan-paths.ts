// The scan of everything the user named: files one after the other (bounded memory: one file's
// window at a time), findings into a bounded collector.

import { FindingCollector } from './collector.js';
import { MAX_SKIPPED_LISTED } from './limits.js';
import { truncateSecrets } from './redact.js';
import { notScanned, ScanInterrupted, ScanPathError, scanFile } from './scan-file.js';
import { checkPaths, walkFiles } from './walk.js';

export interface ScanOutcome {
  files: number;
  bytes: number;
  collector: FindingCollector;
  /** FIFOs, sockets and devices met in a folder and not read: the first few (`path: what`), and how many. */
  skipped: { listed: string[]; count: number };
  /** A signal stopped the scan before every file was read. */
  interrupted?: true;
}

export async function scanPaths(
  paths: readonly string[],
  opts: { findingLimit?: number; signal?: AbortSignal } = {},
): Promise<ScanOutcome> {
  await checkPaths(paths);
  const collector = new FindingCollector(opts.findingLimit);
  const skipped: ScanOutcome['skipped'] = { listed: [], count: 0 };
  const onSkip = (path: string, what: string): void => {
    skipped.count += 1;
    if (skipped.listed.length < MAX_SKIPPED_LISTED) skipped.listed.push(truncateSecrets(`${path} (${what})`));
  };
  // An entry that cannot be read is a finding that names it; the rest of the scan goes on.
  const unreadable = (name: string, why: string): void => notScanned(name, null, why).forEach((f) => collector.add(f));
  let files = 0;
  let bytes = 0;
  for await (const file of walkFiles(paths, onSkip, (path, why) => unreadable(path, `cannot read it: ${why}`))) {
    if (opts.signal?.aborted) return { files, bytes, collector, skipped, interrupted: true };
    try {
      bytes += await scanFile(file.name, (f) => collector.add(f), opts.signal, file.path);
    } catch (e) {
      if (e instanceof ScanInterrupted) return { files, bytes: bytes + e.bytes, collector, skipped, interrupted: true };
      if (!(e instanceof ScanPathError)) throw e;
      unreadable(file.name, e.message);
    }
    files += 1;
  }
  return { files, bytes, collector, skipped };
}
