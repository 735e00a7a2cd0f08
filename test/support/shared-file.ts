// Files of ../shared (the spec's vectors, the vendored JUnit schema) as CI lays them out: a clone of
// this repository with shared/ beside it. The developers' machines have the same layout under /work.

import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..', '..');

export function sharedFile(relative: string): string {
  for (const base of [join(ROOT, '..', 'shared'), '/work/shared']) {
    const candidate = join(base, relative);
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(`shared/${relative} not found beside the repository (${join(ROOT, '..', 'shared')})`);
}
