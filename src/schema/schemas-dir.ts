// The schemas/ folder of the installed package, from src/schema/ under vitest and from dist/src/schema/
// after tsc alike.

import { join } from 'node:path';
import { packageRoot } from '../package-root.js';

export function findSchemasDir(): string {
  return join(packageRoot(), 'schemas');
}
