// The corpus: every spelling and container the scanner must see through, and the near misses it
// must leave alone. Keys are generated so that no key-shaped literal sits in the repository.

import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Finding } from './finding.js';
import { scanPaths } from './scan-paths.js';

const HEX_A = 'a1'.repeat(24);
const HEX_B = 'b2'.repeat(24);
const KEY = `spk_live_${HEX_A}`;
const TOKEN = `sot_${HEX_B}`;

let dir: string;
let all: Finding[];

/** Findings of one file in text order (the collector keeps them per prefix). */
function inFile(name: string): Finding[] {
  const order = (f: Finding): string =>
    `${f.location ?? ''}\u0000${String(f.line).padStart(6, '0')}:${String(f.column).padStart(6, '0')}`;
  return all
    .filter((f) => f.file.endsWith(name))
    .sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'scan-corpus-'));
  await mkdir(join(dir, 'dist', 'nested'), { recursive: true });
  const minified = `!function(){var a="x",é="ü";const k="${KEY}";fetch(u,{headers:{"x-svc-org":"${TOKEN}"}})}();`;
  await writeFile(join(dir, 'dist', 'app.min.js'), minified);
  await writeFile(join(dir, 'dist', 'multi.js'), `// header\nconst a = 1;\n    x = '${TOKEN}';\n`);
  await writeFile(join(dir, 'dist', 'escaped.json'), `{"k":"spk\\u005flive_${HEX_A}","t":"sot\\u005F${HEX_B}"}`);
  await writeFile(join(dir, 'dist', 'percent.html'), `<a href="/x?k=spk%5Flive_${HEX_A}&t=sot%5f${HEX_B}">`);
  await writeFile(join(dir, 'dist', 'prefix.js'), `const p = "spk_"; const q = 'sot_' + x; const r = "spk_live_abc";`);
  await writeFile(
    join(dir, 'dist', 'near-miss.js'),
    'despk_a; is_sot_ready(); SPK_MAX; spkx_; Sot_; my_spk_; x1sot_; spk; sot-; spk\\u0060; spk%5E; a%41spk_; a\\u0041sot_',
  );
  await writeFile(join(dir, 'dist', 'escaped-boundary.js'), `"line\\n${KEY}" "%22${TOKEN}"`);
  await writeFile(
    join(dir, 'dist', 'nested', 'app.js.map'),
    JSON.stringify({
      version: 3,
      file: 'app.js',
      mappings: 'AAAA',
      sources: ['webpack:///src/a.ts', 'webpack:///src/config.ts'],
      sourcesContent: ['export {};\n', `// config\nexport const key = '${KEY}';\n`],
    }),
  );
  // sources after sourcesContent: the name is still reported
  await writeFile(
    join(dir, 'dist', 'late-names.map'),
    `{"sourcesContent":["a\\n\\nb '${TOKEN}'"],"sources":["src/late.ts"]}`,
  );
  await writeFile(join(dir, 'dist', 'bundle.js.gz'), gzipSync(`\n\nlet t="${TOKEN}"`));
  await writeFile(join(dir, 'dist', 'bundle.js.br'), brotliCompressSync(Buffer.from(`let k="${KEY}"`)));
  const har = {
    log: {
      version: '1.2',
      entries: [
        {
          request: {
            method: 'GET',
            url: 'https://app.example/ok',
            headers: [{ name: 'accept', value: '*/*' }],
            cookies: [],
          },
          response: { status: 200, headers: [], content: { size: 2, mimeType: 'text/plain', text: 'ok' } },
        },
        {
          request: {
            method: 'POST',
            url: `https://api.example/v1/runs?org=${TOKEN}`,
            headers: [{ name: 'x-partner-key', value: KEY }],
            cookies: [{ name: 'session', value: `s%5F1; tok=sot%5F${HEX_B}` }],
            postData: { mimeType: 'application/json', text: `{"key":"spk\\u005flive_${HEX_A}"}` },
          },
          response: {
            status: 200,
            headers: [{ name: 'set-cookie', value: `t=${TOKEN}` }],
            content: {
              size: 100,
              mimeType: 'application/json',
              text: Buffer.from(`{"a":1,\n"k":"${KEY}"}`).toString('base64'),
              encoding: 'base64',
            },
          },
        },
        // base64-looking text without "encoding": base64 is not decoded into findings
        {
          request: { method: 'GET', url: 'https://x.example/', headers: [], cookies: [] },
          response: {
            status: 200,
            headers: [],
            content: { size: 1, mimeType: 'text/plain', text: Buffer.from(`"${KEY}"`).toString('base64') },
          },
        },
      ],
    },
  };
  await writeFile(join(dir, 'session.har'), JSON.stringify(har, null, 2));
  await writeFile(join(dir, 'session.har.gz'), gzipSync(JSON.stringify(har)));
  await writeFile(join(dir, 'broken.har'), `{"log": {"entries": [ "${TOKEN}" `);
  const outcome = await scanPaths([dir]);
  all = [...outcome.collector.findings('spk_'), ...outcome.collector.findings('sot_')];
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('scan corpus', () => {
  it('reports line and column in a minified one-line bundle (columns in code points)', () => {
    const found = inFile('app.min.js');
    expect(found.map((f) => [f.prefix, f.kind, f.line, f.column])).toEqual([
      ['spk_', 'partner-key', 1, 38],
      ['sot_', 'org-token', 1, 128],
    ]);
  });

  it('reports the line of a multi-line file', () => {
    expect(inFile('multi.js').map((f) => [f.kind, f.line, f.column, f.location])).toEqual([['org-token', 3, 10, null]]);
  });

  it('finds the JSON-escaped and percent-encoded forms and classifies the full key behind them', () => {
    expect(inFile('escaped.json').map((f) => f.kind)).toEqual(['partner-key', 'org-token']);
    expect(inFile('percent.html').map((f) => f.kind)).toEqual(['partner-key', 'org-token']);
  });

  it('reports a bare prefix as kind prefix', () => {
    expect(inFile('prefix.js').map((f) => [f.prefix, f.kind])).toEqual([
      ['spk_', 'prefix'],
      ['sot_', 'prefix'],
      ['spk_', 'prefix'],
    ]);
  });

  it('leaves near misses alone', () => {
    expect(inFile('near-miss.js')).toEqual([]);
  });

  it('treats an escape before the prefix as a separator', () => {
    expect(inFile('escaped-boundary.js').map((f) => f.kind)).toEqual(['partner-key', 'org-token']);
  });

  it('reports a source map finding by source name and line', () => {
    expect(inFile('app.js.map').map((f) => [f.location, f.line, f.column, f.kind])).toEqual([
      ['source webpack:///src/config.ts', 2, 21, 'partner-key'],
    ]);
    expect(inFile('late-names.map').map((f) => [f.location, f.line])).toEqual([['source src/late.ts', 3]]);
  });

  it('decompresses .gz and .br', () => {
    expect(inFile('bundle.js.gz').map((f) => [f.kind, f.line, f.location])).toEqual([
      ['org-token', 3, 'gzip-decompressed'],
    ]);
    expect(inFile('bundle.js.br').map((f) => [f.kind, f.location])).toEqual([['partner-key', 'brotli-decompressed']]);
  });

  it('reads every part of a HAR with the entry index, base64 content decoded', () => {
    const where = inFile('session.har').map((f) => `${f.kind} ${f.location} ${f.line}:${f.column}`);
    expect(where).toEqual([
      'org-token log.entries[1].request.cookies[0].value (session) 1:12',
      'partner-key log.entries[1].request.headers[0].value (x-partner-key) 1:1',
      'partner-key log.entries[1].request.postData.text 1:9',
      'org-token log.entries[1].request.url 1:33',
      'partner-key log.entries[1].response.content.text (base64-decoded) 2:6',
      'org-token log.entries[1].response.headers[0].value (set-cookie) 1:3',
    ]);
    expect(inFile('session.har.gz').map((f) => f.location)).toContain('gzip-decompressed › log.entries[1].request.url');
  });

  it('scans a broken HAR as text', () => {
    expect(inFile('broken.har').map((f) => [f.kind, f.location])).toEqual([
      ['org-token', 'not valid JSON, scanned as text'],
    ]);
  });

  it('never shows more than 12 characters of a key or token', () => {
    const text = JSON.stringify(all);
    expect(text).not.toContain(HEX_A.slice(0, 8));
    expect(text).not.toContain(HEX_B.slice(0, 9));
    expect(all.length).toBeGreaterThan(0);
    for (const f of all) expect(f.excerpt.length).toBeLessThan(40);
    expect(inFile('app.min.js')[0]!.excerpt).toMatch(/const k="spk_live_a1a…$/);
  });
});
