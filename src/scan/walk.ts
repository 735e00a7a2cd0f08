// The files under the given paths, in a stable order (names sorted), each folder visited once
// even through symbolic links. A path that does not exist or cannot be read is a usage error; so is
// a FIFO, socket or device named directly (reading one may block or never end: /dev/zero). Met in a
// folder walk, such an entry is skipped and reported to `onSkip` (it is not a file a browser gets).

import type { Stats } from 'node:fs';
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { errnoCode, errnoOrMessage } from '../narrow.js';
import { ScanPathError } from './scan-file.js';

function describe(path: string, e: unknown): ScanPathError {
  const code = errnoCode(e);
  const why =
    code === 'ENOENT' ? 'no such file or folder' : code === 'EACCES' ? 'permission denied' : errnoOrMessage(e);
  return new ScanPathError(`cannot read ${path}: ${why}`);
}

/** What a path that is neither a regular file nor a folder is, in words (undefined for a file or folder). */
export function specialKind(info: Stats): string | undefined {
  if (info.isFile() || info.isDirectory()) return undefined;
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

/** Fails fast, before any scanning, when a given path cannot be used. */
export async function checkPaths(paths: readonly string[]): Promise<void> {
  for (const p of paths) {
    let info: Stats;
    try {
      info = await stat(p);
    } catch (e) {
      throw describe(p, e);
    }
    const special = specialKind(info);
    if (special !== undefined) throw new ScanPathError(`cannot scan ${p}: ${special}, not a regular file or folder`);
  }
}

export type SkipListener = (path: string, what: string) => void;

export async function* walkFiles(
  paths: readonly string[],
  onSkip: SkipListener = () => undefined,
): AsyncGenerator<string> {
  const seen = new Set<string>();
  for (const p of paths) yield* walk(p, seen, onSkip);
}

async function* walk(path: string, seen: Set<string>, onSkip: SkipListener): AsyncGenerator<string> {
  let info;
  try {
    info = await stat(path);
  } catch (e) {
    // A dangling link inside a folder is not something the user named: skip it.
    if ((await lstat(path).catch(() => undefined))?.isSymbolicLink()) return;
    throw describe(path, e);
  }
  if (info.isFile()) {
    yield path;
    return;
  }
  const special = specialKind(info);
  if (special !== undefined) {
    onSkip(path, special);
    return;
  }
  const real = await realpath(path).catch(() => path);
  if (seen.has(real)) return;
  seen.add(real);
  let names: string[];
  try {
    names = await readdir(path);
  } catch (e) {
    throw describe(path, e);
  }
  names.sort();
  for (const name of names) yield* walk(join(path, name), seen, onSkip);
}
