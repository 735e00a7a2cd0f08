// `npm run bench:scan`: throughput (MB/s) and peak RSS of `svc-certify scan` on a generated 200 MB
// corpus: a 50 MB bundle folder and a 150 MB HAR, each scanned in its own process, then both at
// once; median of 3 runs (SCAN_BENCH_RUNS). Goals: >= 100 MB/s and peak RSS < 200 MB.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateCorpus } from './scan-corpus.js';

interface Measure {
  bytes: number;
  files: number;
  ms: number;
  findings: number;
  maxRssMb: number;
}

const measureScript = fileURLToPath(new URL('./scan-measure.js', import.meta.url));
const RUNS = Number(process.env.SCAN_BENCH_RUNS ?? 3);

function measureOnce(paths: string[]): Measure {
  const r = spawnSync(process.execPath, [measureScript, ...paths], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`scan failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as Measure;
}

/** The median time of a few runs (the machine is shared: one run can catch a busy moment), the highest RSS. */
function measure(paths: string[]): Measure {
  const runs = Array.from({ length: RUNS }, () => measureOnce(paths)).sort((a, b) => a.ms - b.ms);
  return { ...runs[Math.floor(RUNS / 2)]!, maxRssMb: Math.max(...runs.map((r) => r.maxRssMb)) };
}

function line(label: string, m: Measure): string {
  const mb = m.bytes / (1 << 20);
  return `${label.padEnd(28)} ${mb.toFixed(0).padStart(4)} MB in ${(m.ms / 1000).toFixed(2)} s = ${(mb / (m.ms / 1000)).toFixed(0).padStart(4)} MB/s, peak RSS ${m.maxRssMb.toFixed(0)} MB, ${m.findings} finding(s)`;
}

const dir = mkdtempSync(join(tmpdir(), 'svc-scan-bench-'));
try {
  console.log('generating the corpus …');
  const corpus = await generateCorpus(dir);
  const bundles = measure([corpus.bundleDir]);
  const har = measure([corpus.harPath]);
  const both = measure([corpus.bundleDir, corpus.harPath]);
  console.log(line('bundle folder (50 MB)', bundles));
  console.log(line('HAR (150 MB)', har));
  console.log(line('whole corpus (200 MB)', both));
  const mbps = both.bytes / (1 << 20) / (both.ms / 1000);
  const peak = Math.max(bundles.maxRssMb, har.maxRssMb, both.maxRssMb);
  console.log(`bench:scan: ${mbps.toFixed(0)} MB/s (goal >= 100), peak RSS ${peak.toFixed(0)} MB (goal < 200)`);
  if (mbps < 100 || peak >= 200) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
