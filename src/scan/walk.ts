// The files under the given paths, in a stable order (names sorted), each folder visited once
// even through symbolic links. A path that does not exist or cannot be read is a usage error.

import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ScanPathError } from './scan-file.js';

function describe(path: string, e: unknown): ScanPathError {
  const err = e as NodeJS.ErrnoException;
  const why = err.code === 'ENOENT' ? 'no such file or folder' : err.code === 'EACCES' ? 'permission denied' : (err.code ?? err.message);
  return new ScanPathError(`cannot read ${path}: ${why}`);
}

/** Fails fast, before any scanning, when a given path cannot be used. */
export async function checkPaths(paths: readonly string[]): Promise<void> {
  for (const p of paths) {
    try {
      await stat(p);
    } catch (e) {
      throw describe(p, e);
    }
  }
}

export async function* walkFiles(paths: readonly string[]): AsyncGenerator<string> {
  const seen = new Set<string>();
  for (const p of paths) yield* walk(p, seen);
}

async function* walk(path: string, seen: Set<string>): AsyncGenerator<string> {
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
  if (!info.isDirectory()) return; // sockets, fifos, devices
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
  for (const name of names) yield* walk(join(path, name), seen);
}
