// Debian's chromium through playwright-core, for the report tests that open report.html in a real
// browser. No browser is ever downloaded: the tests use the system one or, off CI, skip.

import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';

// Skipped only on a developer's machine without the browser: in CI (CI=true, which .ci/run sets) a
// missing browser fails the launch instead of passing silently.
const inCi = /^(1|true)$/i.test(process.env.CI ?? '');
export const chromiumRunsHere = inCi || existsSync(CHROMIUM);

/** Headless, sandbox off (containers), and nothing that would reach the network on its own. */
export function launchChromium(executablePath = CHROMIUM): Promise<Browser> {
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
