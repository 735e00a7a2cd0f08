// Files of ../shared (the spec's vectors, the vendored JUnit schema) as CI lays them out: a clone of
// this repository with shared/ beside it (the developers' checkouts and worktrees have the same layout).

import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..', '..');

export function sharedFile(relative: string): string {
  const candidate = join(ROOT, '..', 'shared', relative);
  if (existsSync(candidate)) return candidate;
  throw new Error(`shared/${relative} not found beside the repository (${join(ROOT, '..', 'shared')})`);
}
