// The package as a user gets it: `npm pack`, then the tarball installed into an empty folder, where
// `npx svc-certify` resolves to it (no registry copy of svc-certify is involved).

import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { cleanEnv, ROOT, tmp } from '../cli-support.js';

const exec = promisify(execFile);
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
export const NPX = process.platform === 'win32' ? 'npx.cmd' : 'npx';

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a program to its end; a non-zero exit is a result, not a throw. */
export async function sh(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Ran> {
  try {
    const { stdout, stderr } = await exec(cmd, args, { cwd, env: cleanEnv(env), maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof err.code === 'number' ? err.code : -1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
  }
}

export interface PackedApp {
  /** The folder the tarball is installed in (its node_modules/.bin has svc-certify). */
  app: string;
  /** The files `npm pack` put in the tarball. */
  files: string[];
  /** What `npm install` of the tarball printed on stderr. */
  installStderr: string;
}

export async function packAndInstall(): Promise<PackedApp> {
  const dest = tmp('svc-pack-');
  // As a release packs it: `prepack` builds and takes the install-time scripts out of package.json, `postpack` restores it.
  const pack = await sh(NPM, ['pack', '--json', '--pack-destination', dest], ROOT);
  if (pack.code !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
  // The scripts' own output precedes npm's JSON on stdout.
  const packed = (
    JSON.parse(pack.stdout.slice(pack.stdout.indexOf('\n[') + 1)) as Array<{
      filename: string;
      files: Array<{ path: string }>;
    }>
  )[0]!;
  const app = tmp('svc-app-');
  const install = await sh(
    NPM,
    ['install', '--no-audit', '--no-fund', '--prefer-offline', join(dest, packed.filename)],
    app,
  );
  if (install.code !== 0) throw new Error(`npm install of the tarball failed: ${install.stderr}`);
  return { app, files: packed.files.map((f) => f.path), installStderr: install.stderr };
}
