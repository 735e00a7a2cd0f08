// The package root holds package.json, spec/ and schemas/. Compiled code sits one level deeper (dist/)
// than the sources, so the root is found by walking up rather than by a fixed relative path; a leaf
// module so that every layer (runner, schema) can use the one finder.

import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

function isRoot(dir: string): boolean {
  const pkg = join(dir, 'package.json');
  if (!existsSync(pkg)) return false;
  // Requiring schemas/ too skips a package.json that tsc may copy into dist/.
  const schemas = join(dir, 'schemas');
  if (!existsSync(schemas) || !statSync(schemas).isDirectory()) return false;
  const manifest: { name?: string } = JSON.parse(readFileSync(pkg, 'utf8'));
  return manifest.name === 'svc-certify';
}

export function packageRoot(): string {
  if (cached) return cached;
  const start = dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = dirname(dir)) {
    if (isRoot(dir)) return (cached = dir);
    if (dirname(dir) === dir) break;
  }
  throw new Error(`svc-certify: package root (package.json and schemas/) not found above ${start}`);
}
