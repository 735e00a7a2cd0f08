import { PassThrough } from 'node:stream';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_REPORTERS,
  parseReporterToken,
  REPORTER_NAMES,
  reporterNamesOf,
} from '../src/config/reporter-names.js';
import { FILE_REPORTS } from '../src/report/file-reports.js';
import { createReporters, REPORTERS } from '../src/report/index.js';
import { makeRunResult } from './report-fixtures.js';
import { redacted } from './support/redacted.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'report-registry-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('reporter registry', () => {
  it('is what --reporter is validated against (config/reporter-names.ts, below the reporters), in its order', () => {
    expect(Object.keys(REPORTERS)).toEqual([...REPORTER_NAMES]);
    for (const [key, entry] of Object.entries(REPORTERS)) expect(entry.name).toBe(key);
    for (const name of DEFAULT_REPORTERS) expect(REPORTER_NAMES).toContain(name);
    // sarif is asked for by name, mostly with scan.
    expect(DEFAULT_REPORTERS).not.toContain('sarif');
  });

  it('creates reporters in the order asked, each named after its key, duplicates collapsed', () => {
    const names = reporterNamesOf(['json,console', ' junit ', 'json']).map((token) => parseReporterToken(token).name);
    const reporters = createReporters(names, { stream: new PassThrough(), interactive: false, color: false });
    expect(reporters.map((r) => r.name)).toEqual(['json', 'console', 'junit']);
  });

  it('an unknown name stops at the one validation, naming it and the valid ones', () => {
    expect(() => reporterNamesOf(['console', 'xml', 'tap'])).toThrowError(
      '--reporter: unknown reporter "xml"; choose from console,junit,html,json,markdown,sarif',
    );
  });

  it('writes the file of each file report into a report dir it creates, and the console writes none', async () => {
    const stream = new PassThrough();
    stream.resume();
    const reportDir = join(dir, 'not', 'yet', 'there');
    const reporters = createReporters([...REPORTER_NAMES], { stream, interactive: false, color: false });
    for (const reporter of reporters) await reporter.onRunEnd(redacted(makeRunResult()), { reportDir });
    expect((await readdir(reportDir)).sort()).toEqual(FILE_REPORTS.map((r) => r.file).sort());
    expect(FILE_REPORTS.map((r) => r.name)).toEqual(REPORTER_NAMES.filter((name) => name !== 'console'));
    expect(new Set(FILE_REPORTS.map((r) => r.file)).size).toBe(FILE_REPORTS.length);
  });
});
