// The package root holds package.json and spec/; compiled code sits one level deeper (dist/) than
// the sources, so the root is found by walking up rather than by a fixed relative path.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

export function packageRoot(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      const name = (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name;
      if (name === 'svc-certify') return (cached = dir);
    }
    const up = dirname(dir);
    if (up === dir) throw new Error('svc-certify: package root not found above ' + fileURLToPath(import.meta.url));
    dir = up;
  }
}

export function toolVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

export function specPath(): string {
  return join(packageRoot(), 'spec', 'partner-api-v1.md');
}
