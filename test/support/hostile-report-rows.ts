// The hostile matrix rows of `svc-certify report` given edited numbers: a results.json laundered to
// read "certified" over 89 failed checks, and a certified one with a check edited to `failed` and its
// counts left alone. The verdict, the counts and the exit code are the checks', and the file's
// stored numbers are named in a notice, never believed.

import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanEnv } from '../cli-support.js';
import { PACKAGE_BIN } from './peak-rss.js';
import type { MatrixRow } from './hostile-matrix.js';
import { makePassingRunResult, makeRunResult } from '../report-fixtures.js';
import { launderedResult } from './laundered-result.js';
import { deepErrorBody, startAnswering404 } from './hostile-secret-targets.js';
import { renderJson } from '../../src/report/json.js';
import { renderJunit } from '../../src/report/junit.js';

interface ReportedResults {
  verdict?: string;
  summary?: { failed?: number; passed?: number };
  notices?: Array<{ id: string; message: string }>;
}

/** A problem unless results.json counts `failed` failures and names the disbelieved numbers in a notice. */
function recounted(failed: number): MatrixRow['verify'] {
  return (results) => {
    const r = (results ?? {}) as ReportedResults;
    if (r.summary?.failed !== failed) return `summary.failed is ${r.summary?.failed}, not ${failed}`;
    const notice = r.notices?.find((n) => n.id === 'report.stored-numbers-disagree');
    if (!notice) return 'no notice names the stored numbers that were not believed';
    return /not believed/.test(notice.message) ? undefined : `the notice does not say so: ${notice.message}`;
  };
}

/** Every report a person reads says "Not certified", none "Certified" alone. */
const shownNotCertified: MatrixRow['verifyOutputs'] = (outputs) => {
  for (const name of ['summary.md', 'report.html', 'stdout']) {
    const text = outputs.find((o) => o.name === name)?.text ?? '';
    if (!/Not certified/.test(text)) return `${name} does not say "Not certified"`;
    if (/(?<!Not )Certified\b/.test(text.replace(/Not certified/g, ''))) return `${name} says "Certified"`;
  }
  return undefined;
};

export const REPORT_ROWS: MatrixRow[] = [
  {
    name: 'report-laundered-verdict',
    what: 'report of a results.json with 89 failed checks whose verdict and summary were edited to "certified, 212 passed, 0 failed"',
    async prepare(dir) {
      writeFileSync(join(dir, 'in.json'), renderJson(launderedResult()));
      return { args: ['report', 'in.json'] };
    },
    expect: { code: 1, verdict: 'not-certified', reports: true },
    verify: recounted(89),
    verifyOutputs: shownNotCertified,
    maxSeconds: 20,
    testedIn: 'test/hostile-matrix.test.ts',
  },
  {
    name: 'report-check-edited-failed',
    what: 'report of a certified results.json with one check edited to `failed`, its counts and verdict left as they were',
    async prepare(dir) {
      const result = makePassingRunResult();
      const [first, ...rest] = result.checks;
      if (!first) throw new Error('the fixture has a passed check');
      const edited = {
        ...result,
        verdict: 'certified' as const,
        checks: [{ ...first, status: 'failed' as const }, ...rest],
      };
      writeFileSync(join(dir, 'in.json'), renderJson(edited));
      return { args: ['report', 'in.json'] };
    },
    expect: { code: 1, verdict: 'not-certified', reports: true },
    verify: recounted(1),
    maxSeconds: 20,
    testedIn: 'test/hostile-matrix.test.ts',
  },
];

/** The launcher a row runs itself to prepare (HOSTILE_BIN measures another build, as the bench does). */
function launcher(): string {
  return process.env.HOSTILE_BIN ?? PACKAGE_BIN;
}

/**
 * A report folder that is a tmpfs holding the set of an earlier `report`, remounted to leave room
 * for `freeBytes` more: a full disk for the next set, without filling the machine's. Needs root and
 * Linux (mount), so the row is the bench's; src/report/report-set.test.ts fails the writes in CI.
 */
function fullDiskFolder(dir: string, freeBytes: number): void {
  const out = join(dir, 'out');
  mkdirSync(out);
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', out]);
  writeFileSync(join(dir, 'small.json'), renderJson(makeRunResult()));
  // Exit 1: the fixture is not certified; what counts is the set it leaves.
  spawnSync(process.execPath, [launcher(), 'report', 'small.json', '--report-dir', 'out'], {
    cwd: dir,
    env: cleanEnv(),
    stdio: 'ignore',
  });
  mkdirSync(join(dir, 'previous'));
  for (const name of readdirSync(out)) copyFileSync(join(out, name), join(dir, 'previous', name));
  const { blocks, bfree, bsize } = statfsSync(out);
  const used = (blocks - bfree) * bsize;
  execFileSync('mount', ['-o', `remount,size=${used + freeBytes}`, out]);
}

/** A problem unless every report in the folder is the earlier set's, byte for byte. */
const previousSetWhole: MatrixRow['verifyOutputs'] = (outputs, dir) => {
  for (const name of readdirSync(join(dir, 'previous'))) {
    const now = outputs.find((o) => o.name === name)?.text;
    if (now === undefined) return `${name} of the previous set is gone`;
    if (now !== readFileSync(join(dir, 'previous', name), 'utf8')) return `${name} is not the previous set's (a mix)`;
  }
  return undefined;
};

REPORT_ROWS.push({
  name: 'report-full-disk',
  what: 'report into a folder (a tmpfs) that holds an earlier set, with room for the new junit.xml but not the rest',
  async prepare(dir) {
    const big = launderedResult();
    writeFileSync(join(dir, 'big.json'), renderJson(big));
    const cleanup = async (): Promise<void> => void execFileSync('umount', [join(dir, 'out')]);
    try {
      fullDiskFolder(dir, renderJunit(big).length + 16 * 1024);
    } catch (e) {
      await cleanup().catch(() => undefined);
      throw e;
    }
    return { args: ['report', 'big.json'], cleanup };
  },
  expect: { code: 2, reports: true, stderr: /ENOSPC/ },
  verifyOutputs: previousSetWhole,
  maxSeconds: 20,
  testedIn: 'bench',
});

/** A problem if a check ended `error` or any text calls the deep (valid) answers not JSON for want of stack. */
function judgedAsJson(results: unknown): string | undefined {
  const checks =
    (
      results as {
        checks?: Array<{ id: string; status: string; message: string; observations?: Array<{ message: string }> }>;
      }
    ).checks ?? [];
  const errors = checks.filter((c) => c.status === 'error').map((c) => `${c.id}: ${c.message}`);
  if (errors.length > 0) return `checks ended error: ${errors.slice(0, 3).join('; ')}`;
  const wrong = checks.find((c) =>
    [c.message, ...(c.observations ?? []).map((o) => o.message)].some((m) => /not JSON|call stack/i.test(m)),
  );
  return wrong ? `${wrong.id} calls a valid answer not JSON: ${wrong.message.slice(0, 200)}` : undefined;
}

REPORT_ROWS.push({
  name: 'run-nested-20000',
  what: 'run, every answer a 404 whose error, message and data are valid arrays nested 20,000 levels',
  async prepare() {
    const body = deepErrorBody(20_000);
    const target = await startAnswering404(() => body);
    return {
      args: ['run', '--base-url', target.baseUrl, '--partner-key', `spk_live_${'ab'.repeat(24)}`],
      cleanup: () => target.close(),
    };
  },
  expect: { code: 1, verdict: 'not-certified', reports: true },
  verify: judgedAsJson,
  maxSeconds: 60,
  testedIn: 'test/hostile-matrix.test.ts',
});

/** `count` results.json files of the fixture run (each not certified), named in one command line. */
function manyResults(dir: string, count: number): string[] {
  const text = renderJson(makeRunResult());
  mkdirSync(join(dir, 'in'));
  return Array.from({ length: count }, (_, i) => {
    const name = join('in', `r${i}.json`);
    writeFileSync(join(dir, name), text);
    return name;
  });
}

/** A problem unless results.json is an interrupted report that says how many inputs it read of `given`. */
function interruptedAfterSome(given: number): MatrixRow['verify'] {
  return (results) => {
    const notice = (results as ReportedResults | undefined)?.notices?.find((n) => n.id === 'report.interrupted');
    if (!notice) return 'no notice says the report was interrupted';
    const m = /after reading ([\d,]+) of ([\d,]+) results files/.exec(notice.message);
    if (!m || Number(m[2]?.replace(/,/g, '')) !== given)
      return `the notice does not count the inputs: ${notice.message}`;
    return undefined;
  };
}

REPORT_ROWS.push(
  {
    name: 'report-300-files',
    what: 'report merging 300 results.json files (9.5 KB each) into one dossier',
    prepare: async (dir) => ({ args: ['report', ...manyResults(dir, 300)] }),
    expect: { code: 1, verdict: 'not-certified', reports: true },
    maxSeconds: 60,
    testedIn: 'test/hostile-matrix.test.ts',
  },
  {
    name: 'report-3000-files-sigterm',
    what: 'report merging 3,000 results.json files; SIGTERM 0.5 s after it says it is reading them',
    prepare: async (dir) => ({
      args: ['report', ...manyResults(dir, 3000)],
      interrupt: { signal: 'SIGTERM', whenOutput: /^report: reading 3,000 results files$/m, afterMs: 500 },
    }),
    expect: { code: 143, verdict: 'interrupted', reports: true },
    verify: interruptedAfterSome(3000),
    maxSeconds: 60,
    testedIn: 'test/hostile-matrix.test.ts',
  },
  {
    name: 'report-10000-files',
    what: 'report merging 10,000 results.json files (9.5 KB each) into one dossier',
    prepare: async (dir) => ({ args: ['report', ...manyResults(dir, 10_000)] }),
    expect: { code: 1, verdict: 'not-certified', reports: true },
    maxSeconds: 300,
    testedIn: 'bench',
  },
  {
    name: 'report-16mib-file',
    what: 'report of one results.json just under the 16 MiB a results.json may hold (the fixture run, its checks repeated)',
    async prepare(dir) {
      const result = makeRunResult();
      const copies = Math.floor((15.5 * 1024 * 1024) / renderJson(result).length);
      const checks = Array.from({ length: copies }, (_, i) =>
        result.checks.map((c) => ({ ...c, id: `${c.id}-${i}` })),
      ).flat();
      writeFileSync(join(dir, 'in.json'), renderJson({ ...result, checks }));
      return { args: ['report', 'in.json'] };
    },
    expect: { code: 1, verdict: 'not-certified', reports: true },
    maxSeconds: 300,
    testedIn: 'bench',
  },
);

REPORT_ROWS.push(
  {
    name: 'report-endless-input',
    what: 'report of /dev/zero: an input with no size that never ends',
    prepare: async () => ({ args: ['report', '/dev/zero'] }),
    expect: { code: 2, reports: false, stderr: /\/dev\/zero holds more than the 16777216 bytes/ },
    maxSeconds: 20,
    testedIn: 'test/hostile-matrix.test.ts',
  },
  {
    name: 'report-60mb-file',
    what: 'report of one valid 60 MB results.json (the fixture run, its checks repeated), past the 16 MiB bound',
    async prepare(dir) {
      const result = makeRunResult();
      const copies = Math.floor((60 * 1024 * 1024) / renderJson(result).length);
      const checks = Array.from({ length: copies }, (_, i) =>
        result.checks.map((c) => ({ ...c, id: `${c.id}-${i}` })),
      ).flat();
      writeFileSync(join(dir, 'in.json'), renderJson({ ...result, checks }));
      return { args: ['report', 'in.json'] };
    },
    expect: { code: 2, reports: false, stderr: /holds more than the 16777216 bytes/ },
    maxSeconds: 300,
    testedIn: 'bench',
  },
);
