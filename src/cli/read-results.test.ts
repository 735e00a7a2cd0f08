import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { renderJson } from '../report/json.js';
import { makeRunResult } from '../../test/report-fixtures.js';
import { MAX_RESULTS_FILE_BYTES, readAtMost, readResultsFile, readerRedactor } from './read-results.js';

const KEY = `spk_live_${'7e'.repeat(24)}`;
let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function file(text: string): string {
  dir = mkdtempSync(join(tmpdir(), 'read-results-'));
  const path = join(dir, 'results.json');
  writeFileSync(path, text);
  return path;
}

describe('readResultsFile', () => {
  it('redacts what it reads: keys by their format, and the secrets the environment gives', () => {
    const secret = 'whsec-from-the-environment-42';
    const text = renderJson(makeRunResult()).replace('was accepted;', `was accepted with ${KEY} and ${secret};`);
    const read = readResultsFile(file(text), 'results.json', readerRedactor([], { SVC_WEBHOOK_SECRET: secret }));
    const all = JSON.stringify(read);
    expect(all).not.toContain(KEY.slice(12));
    expect(all).not.toContain(secret);
    expect(all).toContain('spk_live_7e7…');
  });

  it('refuses a file past MAX_RESULTS_FILE_BYTES before reading it', () => {
    const path = file('{}');
    truncateSync(path, MAX_RESULTS_FILE_BYTES + 1);
    expect(() => readResultsFile(path)).toThrow(/more than the .* a results.json of svc-certify holds/);
  });

  it('stops reading an endless input (a device, a pipe) at the bound instead of reading it whole', () => {
    expect(() => readResultsFile('/dev/zero', 'zero.json')).toThrow(/zero\.json holds more than the 16777216 bytes/);
    const path = file('x'.repeat(100));
    expect(readAtMost(path, 100)?.length).toBe(100);
    expect(readAtMost(path, 99)).toBeUndefined();
  });

  it('shares a referred exchange instead of copying it, and refuses a reference in a failed check', () => {
    const result = makeRunResult();
    const passed = result.checks.findIndex((c) => c.status === 'passed' && c.exchanges.length > 0);
    const failed = result.checks.findIndex((c) => c.status === 'failed');
    const withRefs = result.checks.map((c, i) =>
      i === passed ? { ...c, exchanges: [...c.exchanges, { sameAs: { check: i, exchange: 0 } }] } : c,
    );
    const read = readResultsFile(file(JSON.stringify({ ...result, checks: withRefs })));
    const exchanges = read.checks[passed]?.exchanges ?? [];
    expect(exchanges).toHaveLength(2);
    expect(exchanges[1]).toBe(exchanges[0]);
    const bad = result.checks.map((c, i) =>
      i === failed ? { ...c, exchanges: [...c.exchanges, { sameAs: { check: passed, exchange: 0 } }] } : c,
    );
    expect(() => readResultsFile(file(JSON.stringify({ ...result, checks: bad })))).toThrow(
      /only passed and skipped checks refer/,
    );
  });
});
