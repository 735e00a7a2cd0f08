// `svc-certify --help` starts as fast as a small CLI should: it loads commander and the help texts,
// not the option tables, the validators or the redactor (those load for the command that runs).
// Observed with a module loader hook that names every module the launcher loads.

import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, cleanEnv, tmp } from './cli-support.js';

/** The modules of dist/src a command line loads, relative to dist/src, in name order. */
function loadedModules(args: string[]): string[] {
  const dir = tmp('svc-help-start-');
  const hook = join(dir, 'hook.mjs');
  writeFileSync(
    hook,
    'export async function load(url, context, next) { process.stderr.write(`LOADED ${url}\\n`); return next(url, context); }\n',
  );
  const register = join(dir, 'register.mjs');
  writeFileSync(
    register,
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hook).href)});\n`,
  );
  const r = spawnSync(process.execPath, ['--import', pathToFileURL(register).href, BIN, ...args], {
    cwd: dir,
    env: cleanEnv(),
    encoding: 'utf8',
  });
  expect(r.status).toBe(0);
  const prefix = pathToFileURL(join(ROOT, 'dist', 'src')).href + '/';
  return [
    ...new Set(
      r.stderr
        .split('\n')
        .filter((line) => line.startsWith(`LOADED ${prefix}`))
        .map((line) => line.slice(`LOADED ${prefix}`.length)),
    ),
  ].sort();
}

describe('the modules a start loads', () => {
  it('--help: commander, the help texts and the injection points they list, nothing of config/', () => {
    expect(loadedModules(['--help'])).toEqual([
      'cli/commander.js',
      'cli/help-text.js',
      'cli/main.js',
      'cli/openapi-command.js',
      'partner/injection-points.js',
    ]);
  });

  it("a command's --help also loads the option tables (the hook sees them when they load)", () => {
    const loaded = loadedModules(['serve', '--help']);
    expect(loaded).toContain('cli/command-options.js');
    expect(loaded).toContain('config/option-spec.js');
  });
});
