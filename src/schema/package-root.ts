// Finds the schemas/ folder of the installed package: from src/schema/ under vitest and from
// dist/src/schema/ after tsc alike, without knowing how deep the module sits.

import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

/**
 * The nearest folder above `fromUrl` that holds both package.json and schemas/. Requiring both
 * skips a package.json that tsc may copy into dist/ when some module imports it.
 */
export function findSchemasDir(fromUrl: string = import.meta.url): string {
  const start = dirname(fileURLToPath(fromUrl));
  for (let dir = start; ; dir = dirname(dir)) {
    const schemas = join(dir, 'schemas');
    if (existsSync(join(dir, 'package.json')) && isDirectory(schemas)) return schemas;
    if (dirname(dir) === dir) break;
  }
  throw new Error(`no schemas/ folder beside a package.json above ${start}`);
}
