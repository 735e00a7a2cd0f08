#!/usr/bin/env node
// Launcher only: everything lives in the compiled CLI so that start-up stays cheap.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/src/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('svc-certify: not built yet; run `npm ci` (or `npm run build`) in the package folder first\n');
  process.exit(2);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv);
