import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeReportFile } from './write-report-file.js';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('writeReportFile', () => {
  it('replaces a symlink already in the report folder instead of writing through it', async () => {
    dir = mkdtempSync(join(tmpdir(), 'report-link-'));
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'precious');
    const reports = join(dir, 'rd');
    await writeReportFile(reports, 'first.md', 'x');
    symlinkSync('../victim.txt', join(reports, 'summary.md'));
    const path = await writeReportFile(reports, 'summary.md', '# report');
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(lstatSync(path).isSymbolicLink()).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe('# report');
    // No temporary file left behind.
    expect(readdirSync(reports).sort()).toEqual(['first.md', 'summary.md']);
  });

  it('overwrites a report written before', async () => {
    dir = mkdtempSync(join(tmpdir(), 'report-again-'));
    await writeReportFile(dir, 'a.json', '1');
    await writeReportFile(dir, 'a.json', '2');
    expect(readFileSync(join(dir, 'a.json'), 'utf8')).toBe('2');
  });
});
