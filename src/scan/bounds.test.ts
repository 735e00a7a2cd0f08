// The pieces of the scanner's bounds, one by one (test/hostile-scan.test.ts runs the whole CLI on
// hostile files): the one redaction rule, the depth bound, member names, the bounded path, the
// bounded source names, and unscanned files kept apart from matches.

import { describe, expect, it } from 'vitest';
import { FindingCollector } from './collector.js';
import type { Finding } from './finding.js';
import { formatPathSegments } from './json-path.js';
import { JsonDepthError, JsonStream } from './json-stream.js';
import { MAX_JSON_DEPTH, MAX_SOURCE_NAMES } from './limits.js';
import { harScanner, sourceMapScanner } from './part-scanners.js';
import { truncateSecrets } from './redact.js';

const HEX = 'c3'.repeat(24);
const KEY = `spk_live_${HEX}`;
const TOKEN = `sot_${HEX}`;

function scan(make: typeof harScanner, text: string): Finding[] {
  const out: Finding[] = [];
  const s = make('f', null, (f) => out.push(f));
  s.write(text);
  s.end();
  return out;
}

describe('truncateSecrets', () => {
  it('cuts every key or token to its first 12 characters, in every spelling', () => {
    expect(truncateSecrets(`dist/${KEY}.js`)).toBe('dist/spk_live_c3c….js');
    expect(truncateSecrets(`a ${TOKEN} b ${KEY}`)).toBe('a sot_c3c3c3c3… b spk_live_c3c…');
    expect(truncateSecrets(`x?k=spk%5Flive%5F${HEX}`)).not.toContain(HEX.slice(0, 4));
    expect(truncateSecrets(`"spk\\u005flive_${HEX}"`)).not.toContain(HEX.slice(0, 4));
  });

  it('leaves short matches and other text alone, and is idempotent', () => {
    expect(truncateSecrets('const p = "spk_"; despk_a SPK_MAX')).toBe('const p = "spk_"; despk_a SPK_MAX');
    const once = truncateSecrets(`k=${KEY}`);
    expect(truncateSecrets(once)).toBe(once);
  });
});

describe('JSON depth bound', () => {
  const noop = { strings: { start: () => undefined, chunk: () => undefined, end: () => undefined } };

  it('reads JSON nested exactly to the bound', () => {
    const json = new JsonStream(noop);
    json.write(`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`);
    expect(() => json.end()).not.toThrow();
  });

  it('gives up one level past it, before the stack grows further', () => {
    const json = new JsonStream(noop);
    expect(() => json.write('['.repeat(MAX_JSON_DEPTH + 1))).toThrow(JsonDepthError);
    expect(json.depth).toBe(MAX_JSON_DEPTH);
  });
});

describe('member names', () => {
  it('are searched like values and located by their object', () => {
    const found = scan(harScanner, JSON.stringify({ log: { entries: [{ request: { headers: [{ [KEY]: 'x' }] } }] } }));
    expect(found.map((f) => [f.kind, f.location])).toEqual([
      ['partner-key', 'log.entries[0].request.headers[0] (member name)'],
    ]);
    expect(scan(sourceMapScanner, `{"${TOKEN}":1}`).map((f) => [f.kind, f.location])).toEqual([
      ['org-token', '(member name)'],
    ]);
  });

  it('show at most 12 characters of a key in a JSON path', () => {
    expect(formatPathSegments(['log', KEY, 'value'])).toBe('log["spk_live_c3c…"].value');
    const found = scan(harScanner, `{"log":{"${KEY}":{"v":"spk_"}}}`);
    expect(found.map((f) => f.location)).toEqual(['log (member name)', 'log["spk_live_c3c…"].v']);
  });
});

describe('bounded paths and names', () => {
  it('elides the middle of a deep path', () => {
    const path = formatPathSegments(Array.from({ length: 900 }, (_v, i) => i));
    expect(path.length).toBeLessThan(300);
    expect(path).toMatch(/^\[0\]\[1\].*….*\[898\]\[899\]$/);
  });

  it('keeps source names only for the first sources; past them a finding is named by its index', () => {
    const n = MAX_SOURCE_NAMES + 2;
    const sources = Array.from({ length: n }, (_v, i) => `src/${i}.ts`);
    const content: string[] = new Array<string>(n).fill('');
    content[1] = `k='${KEY}'`;
    content[n - 1] = `k='${KEY}'`;
    const found = scan(sourceMapScanner, JSON.stringify({ version: 3, sources, sourcesContent: content }));
    expect(found.map((f) => f.location)).toEqual(['source src/1.ts', `sourcesContent[${n - 1}]`]);
  });
});

describe('collector', () => {
  it('keeps a not-scanned file apart, so matches at the cap never hide it', () => {
    const c = new FindingCollector(2);
    const match: Finding = {
      file: `dist/${KEY}.js`,
      line: 1,
      column: 1,
      kind: 'prefix',
      location: null,
      excerpt: 'spk_',
      prefix: 'spk_',
    };
    for (let i = 0; i < 5; i++) c.add(match);
    c.add({ ...match, kind: 'not-scanned', excerpt: 'not scanned: decompresses past 1024 MiB' });
    expect([
      c.count('spk_'),
      c.findings('spk_').length,
      c.notScannedCount('spk_'),
      c.notScanned('spk_').length,
    ]).toEqual([5, 2, 1, 1]);
    expect(c.findings('spk_')[0]!.file).toBe('dist/spk_live_c3c….js');
  });
});
