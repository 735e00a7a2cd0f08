// Child process of bench:scan: scans the paths it is given and prints bytes, time and its own
// peak RSS as JSON (a separate process, so the corpus generator's memory is not counted).

import { scanPaths } from '../src/scan/scan-paths.js';

const t0 = process.hrtime.bigint();
const outcome = await scanPaths(process.argv.slice(2));
const ms = Number(process.hrtime.bigint() - t0) / 1e6;
process.stdout.write(
  `${JSON.stringify({ bytes: outcome.bytes, files: outcome.files, ms, findings: outcome.collector.count('spk_') + outcome.collector.count('sot_'), maxRssMb: process.resourceUsage().maxRSS / 1024 })}\n`,
);
