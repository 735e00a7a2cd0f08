// The published package is built files with no install-time script: a `prepare` in a dependency's
// package.json makes npm 11 warn on every install ("install scripts not yet covered by allowScripts")
// and would try to build from sources the tarball does not ship. A clone still needs it (`npm ci`
// builds dist/), so `prepack` removes it from package.json for the moment of packing and `postpack`
// puts the file back byte for byte (the pattern of the `pinst` tool, for `prepare`).
//
//   node scripts/pack-manifest.mjs strip     (prepack)
//   node scripts/pack-manifest.mjs restore   (postpack; also the way back after an interrupted pack)

import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const MANIFEST = 'package.json';
const SAVED = 'package.json.packing';
/** npm runs these when the package is installed as a dependency. */
export const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare'];

const mode = process.argv[2];
if (mode === 'strip') {
  const text = readFileSync(MANIFEST, 'utf8');
  const manifest = JSON.parse(text);
  writeFileSync(SAVED, text);
  for (const name of INSTALL_SCRIPTS) delete manifest.scripts?.[name];
  writeFileSync(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
} else if (mode === 'restore') {
  if (existsSync(SAVED)) renameSync(SAVED, MANIFEST);
} else {
  console.error('usage: node scripts/pack-manifest.mjs strip|restore');
  process.exit(2);
}
