// Files of test/vendor/ (the spec bundle's vectors, the JUnit schema), which the repository carries so
// that a clone runs its own tests with nothing beside it; each folder's README names the source.

import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const VENDOR = resolve(import.meta.dirname, '..', 'vendor');

export function vendorFile(relative: string): string {
  const file = join(VENDOR, relative);
  if (!existsSync(file)) throw new Error(`test/vendor/${relative} is missing`);
  return file;
}
