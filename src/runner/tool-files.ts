// The tool's version and the spec it cites, from the package root.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package-root.js';

export function toolVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

export function specPath(): string {
  return join(packageRoot(), 'spec', 'partner-api-v1.md');
}
