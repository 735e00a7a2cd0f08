// The report directory, made ready before anything is spent: created (one level at a time: Node's
// recursive mkdir spins forever on some pseudo filesystems such as /proc), then a file written and
// removed in it. A path under a file, an unwritable or read-only place, a pseudo filesystem: exit 2
// with one line, before the first request.

import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, parse, resolve } from 'node:path';
import { ConfigError } from '../config/config-error.js';
import { errnoOrMessage } from '../narrow.js';

export async function prepareReportDir(dir: string): Promise<void> {
  const absolute = resolve(dir);
  const fail = (why: string): never => {
    throw new ConfigError(`--report-dir ${dir}: ${why}; give a writable folder (or SVC_REPORT_DIR)`);
  };
  // The ancestors that do not exist yet, nearest last.
  const missing: string[] = [];
  let at = absolute;
  for (;;) {
    const info = await stat(at).catch((e: NodeJS.ErrnoException) => e);
    if (!(info instanceof Error)) {
      if (!info.isDirectory()) fail(`${at} is not a folder`);
      break;
    }
    if (info.code === 'ENOTDIR') fail(`a part of the path is a file, not a folder`);
    if (info.code !== 'ENOENT') fail(`cannot read ${at} (${info.code ?? info.message})`);
    missing.unshift(at);
    if (at === parse(at).root) break;
    at = dirname(at);
  }
  for (const folder of missing) {
    await mkdir(folder).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'EEXIST') fail(`cannot create ${folder} (${e.code ?? e.message})`);
    });
  }
  const probe = join(absolute, `.svc-certify-write-test-${process.pid}`);
  try {
    await writeFile(probe, 'ok', { flag: 'wx' });
  } catch (e) {
    fail(`cannot write in it (${errnoOrMessage(e)})`);
  }
  await rm(probe, { force: true });
}
