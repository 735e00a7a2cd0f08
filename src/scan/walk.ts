// The files under the given paths, in a stable order (names sorted), each folder visited once
// even through symbolic links. A path that does not exist or cannot be read is a usage error; so is
// a FIFO, socket or device named directly (reading one may block or never end: /dev/zero). Met in a
// folder walk, such an entry is skipped and reported to `onSkip` (it is not a file a browser gets);
// an entry that cannot be read (a folder without permission, a file gone meanwhile) is reported to
// `onUnreadable` and the walk goes on. Names are read as bytes: a file whose name is not valid UTF-8
// is opened by its bytes and shown with U+FFFD in their place.

import type { Stats } from 'node:fs';
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { errnoCode, errnoOrMessage } from '../narrow.js';
import { ScanPathError } from './scan-file.js';

function describe(path: string, e: unknown): ScanPathError {
  const code = errnoCode(e);
  const why =
    code === 'ENOENT' ? 'no such file or folder' : code === 'EACCES' ? 'permission denied' : errnoOrMessage(e);
  return new ScanPathError(`cannot read ${path}: ${why}`);
}

/** What a path that is neither a regular file nor a folder is, in words (undefined for a file or folder). */
function specialKind(info: Stats): string | undefined {
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

/** A file found: `name` as shown in reports, `path` as opened (bytes when the name is not valid UTF-8). */
export interface WalkedFile {
  name: string;
  path: string | Buffer;
}

export async function* walkFiles(
  paths: readonly string[],
  onSkip: SkipListener = () => undefined,
  onUnreadable: SkipListener = (path, why) => {
    throw new ScanPathError(`cannot read ${path}: ${why}`);
  },
): AsyncGenerator<WalkedFile> {
  const seen = new Set<string>();
  for (const p of paths) yield* walk({ name: p, path: p }, true, seen, onSkip, onUnreadable);
}

function why(e: unknown): string {
  const code = errnoCode(e);
  return code === 'ENOENT' ? 'no such file or folder' : code === 'EACCES' ? 'permission denied' : errnoOrMessage(e);
}

/** A child of `dir`: by its string name when it is valid UTF-8, else by its bytes. */
function child(dir: WalkedFile, raw: Buffer): WalkedFile {
  const text = raw.toString('utf8');
  const name = join(dir.name, text);
  if (typeof dir.path === 'string' && Buffer.from(text, 'utf8').equals(raw))
    return { name, path: join(dir.path, text) };
  const base = typeof dir.path === 'string' ? Buffer.from(dir.path, 'utf8') : dir.path;
  return { name, path: Buffer.concat([base, Buffer.from(sep), raw]) };
}

async function* walk(
  at: WalkedFile,
  named: boolean,
  seen: Set<string>,
  onSkip: SkipListener,
  onUnreadable: SkipListener,
): AsyncGenerator<WalkedFile> {
  let info;
  try {
    info = await stat(at.path);
  } catch (e) {
    // A dangling link inside a folder is not something the user named: skip it.
    if ((await lstat(at.path).catch(() => undefined))?.isSymbolicLink()) return;
    if (named) throw describe(at.name, e);
    onUnreadable(at.name, why(e));
    return;
  }
  if (info.isFile()) {
    yield at;
    return;
  }
  const special = specialKind(info);
  if (special !== undefined) {
    onSkip(at.name, special);
    return;
  }
  const real = await realpath(at.path, { encoding: 'buffer' }).catch(() => undefined);
  const key = real ? real.toString('latin1') : String(at.path);
  if (seen.has(key)) return;
  seen.add(key);
  let names: Buffer[];
  try {
    names = await readdir(at.path, { encoding: 'buffer' });
  } catch (e) {
    if (named) throw describe(at.name, e);
    onUnreadable(at.name, why(e));
    return;
  }
  names.sort(Buffer.compare);
  for (const raw of names) yield* walk(child(at, raw), false, seen, onSkip, onUnreadable);
}
