// Hostile inputs for `svc-certify scan`, generated on the fly (small on disk: the big ones are
// written through gzip) and described as a list of cases, so that the hostile test and
// `npm run bench:hostile` run the same files, and a new command's cases are one more list.
// Keys are generated: no key-shaped literal sits in the repository.

import { execFileSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { brotliCompressSync, crc32, createGzip, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';

export const HEX_A = 'a1'.repeat(24);
export const HEX_B = 'b2'.repeat(24);
export const KEY = `spk_live_${HEX_A}`;
export const TOKEN = `sot_${HEX_B}`;

/** The JSON nesting the scanner reads as structure (src/scan/limits.ts MAX_JSON_DEPTH). */
export const JSON_DEPTH_BOUND = 1000;

const MiB = 1 << 20;

/** `text` (ASCII) repeated to `bytes` bytes, in chunks of about 1 MiB, each whole repeats (nothing big in memory). */
function* repeated(text: string, bytes: number): Generator<Buffer> {
  const chunk = Buffer.from(text.repeat(Math.max(1, Math.floor(MiB / text.length))));
  for (let left = bytes; left > 0; left -= chunk.length) yield left >= chunk.length ? chunk : chunk.subarray(0, left);
}

/**
 * `count` JSON array items `"a",` / `"b",` in a fixed pseudo-random order: a little entropy keeps
 * gzip near 25:1, as for real text (a pure repeat compresses 1000:1 and is a bomb, not a map).
 */
function* sourceNames(count: number): Generator<Buffer> {
  let seed = 17;
  const chunks = Array.from({ length: 4 }, () => {
    let text = '';
    for (let i = 0; i < MiB / 4; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      text += (seed >> 16) & 1 ? '"a",' : '"b",';
    }
    return Buffer.from(text);
  });
  for (let i = 0, left = count; left > 0; i++, left -= MiB / 4) {
    const chunk = chunks[i % chunks.length]!;
    yield left >= MiB / 4 ? chunk : chunk.subarray(0, left * 4);
  }
}

/** Writes the pieces to `path`, gzipped when `gzip` is set. */
async function writePieces(path: string, pieces: Iterable<Buffer | string>, gzip = false): Promise<void> {
  const source = Readable.from(pieces);
  if (gzip) await pipeline(source, createGzip({ level: 1 }), createWriteStream(path));
  else await pipeline(source, createWriteStream(path));
}

/**
 * A gzip stream of `members` × 1 MiB of zeros, written as one small gzip member repeated (valid
 * multi-member gzip): gigabytes once decompressed, made in no time and a few MB.
 */
function zeroBomb(members: number): Buffer {
  const member = gzipSync(Buffer.alloc(MiB), { level: 9 });
  return Buffer.concat(Array.from({ length: members }, () => member));
}

/** `bytes` of base64 text (of fixed pseudo-random bytes: incompressible, like a real captured body), in 4 MiB chunks. */
function* base64Text(bytes: number): Generator<Buffer> {
  const raw = Buffer.alloc(3 * MiB);
  let seed = 7;
  for (let i = 0; i < raw.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    raw[i] = seed >> 16;
  }
  const chunk = Buffer.from(raw.toString('base64'));
  for (let left = bytes; left > 0; left -= chunk.length) yield left >= chunk.length ? chunk : chunk.subarray(0, left);
}

export interface HostileCase {
  name: string;
  /** What the case is, for a bench table. */
  what: string;
  /** Writes the input under `dir`; returns the command line (paths relative to `dir`, the child's cwd). */
  prepare(dir: string): Promise<string[]>;
  /** The exit code of a bounded, honest run: 0 clean, 1 findings or unscanned content, 2 usage. */
  expectedCode: 0 | 1 | 2;
}

export const SCAN_CASES: HostileCase[] = [
  {
    name: 'deep-har-gz',
    what: '150 MB of "[" gzipped to ~150 KB, named .har.gz',
    async prepare(dir) {
      await writePieces(join(dir, 'deep.har.gz'), repeated('[', 150 * MiB), true);
      return ['scan', 'deep.har.gz'];
    },
    expectedCode: 1,
  },
  {
    name: 'deep-har-plain',
    what: '20 MB of "[" then a key, a plain .har',
    async prepare(dir) {
      await writePieces(join(dir, 'deep.har'), [...repeated('[', 20 * MiB), `"${KEY}"`]);
      return ['scan', 'deep.har'];
    },
    expectedCode: 1,
  },
  {
    name: 'deep-members',
    what: '{"a": ×100,000, a token, } ×100,000 (1 MB .har)',
    async prepare(dir) {
      const n = 100_000;
      await writePieces(join(dir, 'members.har'), [...repeated('{"a":', 5 * n), `"${TOKEN}"`, ...repeated('}', n)]);
      return ['scan', 'members.har'];
    },
    expectedCode: 1,
  },
  {
    name: 'deep-values',
    what: `${JSON_DEPTH_BOUND} levels of "[" (the bound), then 1,000,000 strings and a token (4 MB .har)`,
    async prepare(dir) {
      const strings = 1_000_000;
      await writePieces(join(dir, 'values.har'), [
        '['.repeat(JSON_DEPTH_BOUND),
        ...repeated('"a",', 4 * strings),
        `"${TOKEN}"`,
        ']'.repeat(JSON_DEPTH_BOUND),
      ]);
      return ['scan', 'values.har'];
    },
    expectedCode: 1,
  },
  {
    name: 'map-many-sources',
    what: 'a .map.gz (~5 MB) with 30,000,000 sources entries and a key in sourcesContent[3]',
    async prepare(dir) {
      const head = `{"version":3,"sourcesContent":["","","","x='${KEY}'"],"sources":["src/a.ts","src/b.ts","src/c.ts","src/config.ts",`;
      await writePieces(join(dir, 'app.js.map.gz'), [head, ...sourceNames(30_000_000), '""],"mappings":""}'], true);
      return ['scan', 'app.js.map.gz'];
    },
    expectedCode: 1,
  },
  {
    name: 'gzip-bomb',
    what: '10 GB of zeros, gzipped twice (bomb.js.gz.gz, ~100 KB)',
    async prepare(dir) {
      await writeFile(join(dir, 'bomb.js.gz.gz'), gzipSync(zeroBomb(10 * 1024), { level: 9 }));
      return ['scan', 'bomb.js.gz.gz'];
    },
    expectedCode: 1,
  },
  {
    name: 'gzip-in-gzip',
    what: 'a key gzipped twice but named only .gz',
    async prepare(dir) {
      await writeFile(join(dir, 'app.js.gz'), gzipSync(gzipSync(`let k = "${KEY}";`)));
      return ['scan', 'app.js.gz'];
    },
    expectedCode: 1,
  },
  {
    name: 'key-as-member-name',
    what: 'a HAR whose only key is a member name',
    async prepare(dir) {
      const har = {
        log: {
          version: '1.2',
          entries: [{ request: { method: 'GET', url: 'https://app.example/', headers: [{ [KEY]: 'x' }] } }],
        },
      };
      await writeFile(join(dir, 'member.har'), JSON.stringify(har));
      return ['scan', 'member.har'];
    },
    expectedCode: 1,
  },
  {
    name: 'key-in-file-name',
    what: 'a bundle named with a key, given by name and inside a folder',
    async prepare(dir) {
      await mkdir(join(dir, 'dist', 'nested'), { recursive: true });
      await writeFile(join(dir, 'dist', `${KEY}.js`), 'const p = "spk_";');
      await writeFile(join(dir, 'dist', 'nested', `${TOKEN}.js`), 'const p = "sot_";');
      return ['scan', `dist/${KEY}.js`, 'dist/nested'];
    },
    expectedCode: 1,
  },
  {
    name: 'har-100mb-base64',
    what: 'a HAR whose first answer is a 100 MB base64 body, a key in the next entry (100 MB .har, streamed to disk)',
    async prepare(dir) {
      const entry = (text: string): string =>
        `{"request":{"method":"GET","url":"https://app.example/","headers":[${text}]},"response":{"status":200,"content":{"mimeType":"application/octet-stream","encoding":"base64","text":"`;
      await writePieces(join(dir, 'big.har'), [
        `{"log":{"version":"1.2","entries":[${entry('')}`,
        ...base64Text(100 * 1000 * 1000),
        `"}}},${entry(`{"name":"x-partner-key","value":"${KEY}"}`)}"}}}]}}`,
      ]);
      return ['scan', 'big.har'];
    },
    expectedCode: 1,
  },
  {
    name: 'symlink-loops',
    what: 'a folder holding a bundle, a link to itself and two links to each other',
    async prepare(dir) {
      await mkdir(join(dir, 'dist'));
      await writeFile(join(dir, 'dist', 'app.js'), 'console.log(1);');
      await symlink('.', join(dir, 'dist', 'self'));
      await symlink('b.js', join(dir, 'dist', 'a.js'));
      await symlink('a.js', join(dir, 'dist', 'b.js'));
      return ['scan', 'dist'];
    },
    expectedCode: 0,
  },
  {
    name: 'fifo',
    what: 'a named pipe given to scan',
    async prepare(dir) {
      execFileSync('mkfifo', [join(dir, 'pipe.js')]);
      return ['scan', 'pipe.js'];
    },
    expectedCode: 2,
  },
  {
    name: 'device',
    what: '/dev/zero given to scan',
    prepare: async () => ['scan', '/dev/zero'],
    expectedCode: 2,
  },
  {
    name: 'fifo-in-folder',
    what: 'a folder holding a bundle and a named pipe',
    async prepare(dir) {
      await mkdir(join(dir, 'dist'));
      await writeFile(join(dir, 'dist', 'app.js'), 'console.log(1);');
      execFileSync('mkfifo', [join(dir, 'dist', 'pipe.js')]);
      return ['scan', 'dist'];
    },
    expectedCode: 0,
  },
];

/** A zip archive of one entry, deflated (method 8), as any zip tool writes it. */
function zipOf(name: string, content: string): Buffer {
  const data = Buffer.from(content);
  const packed = deflateRawSync(data);
  const file = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(crc32(data), 14);
  local.writeUInt32LE(packed.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(file.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc32(data), 16);
  central.writeUInt32LE(packed.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(file.length, 28);
  const directoryAt = local.length + file.length + packed.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + file.length, 12);
  end.writeUInt32LE(directoryAt, 16);
  return Buffer.concat([local, file, packed, central, file, end]);
}

/**
 * What `scan` once passed silently or stopped on (gzip named .js, .tgz, .zip, .deflate/.zz, a name
 * that is not valid UTF-8, a .gz holding brotli): each is read, or a `not-scanned` finding names it.
 */
export const UNREADABLE_CASES: HostileCase[] = [
  {
    name: 'gzip-named-js',
    what: 'a key in gzip bytes saved as served.js (a bundle stored as the server sends it)',
    async prepare(dir) {
      await writeFile(join(dir, 'served.js'), gzipSync(`let k = "${KEY}";`));
      return ['scan', 'served.js'];
    },
    expectedCode: 1,
  },
  {
    name: 'tgz',
    what: 'a key in a file inside a .tgz (a .tar.gz was already read)',
    async prepare(dir) {
      await mkdir(join(dir, 'src'));
      await writeFile(join(dir, 'src', 'app.js'), `let k = "${KEY}";`);
      execFileSync('tar', ['czf', join(dir, 'bundle.tgz'), '-C', dir, 'src']);
      return ['scan', 'bundle.tgz'];
    },
    expectedCode: 1,
  },
  {
    name: 'zip',
    what: 'a key in a deflated entry of a .zip',
    async prepare(dir) {
      await writeFile(join(dir, 'bundle.zip'), zipOf('app.js', `let k = "${KEY}"; ${'x'.repeat(200)}`));
      return ['scan', 'bundle.zip'];
    },
    expectedCode: 1,
  },
  {
    name: 'zlib-deflate',
    what: 'a key in zlib data named .zz, and in raw deflate data named .deflate',
    async prepare(dir) {
      await writeFile(join(dir, 'app.js.zz'), deflateSync(`let k = "${KEY}";`));
      await writeFile(join(dir, 'app.js.deflate'), deflateRawSync(`let t = "${TOKEN}";`));
      return ['scan', 'app.js.zz', 'app.js.deflate'];
    },
    expectedCode: 1,
  },
  {
    name: 'unreadable-entries',
    what: 'a folder: a key in a file whose name is not valid UTF-8, a .gz holding brotli, a token in a plain file',
    async prepare(dir) {
      await mkdir(join(dir, 'dist'));
      writeFileSync(
        Buffer.concat([Buffer.from(join(dir, 'dist/')), Buffer.from([0x6b, 0xff, 0xfe]), Buffer.from('.js')]),
        `let k = "${KEY}";`,
      );
      await writeFile(join(dir, 'dist', 'brotli.js.gz'), brotliCompressSync('console.log(1);'));
      await writeFile(join(dir, 'dist', 'z.js'), `let t = "${TOKEN}";`);
      return ['scan', 'dist'];
    },
    expectedCode: 1,
  },
];

export function scanCase(name: string): HostileCase {
  const c = [...SCAN_CASES, ...UNREADABLE_CASES].find((x) => x.name === name);
  if (c === undefined) throw new Error(`no hostile case ${name}`);
  return c;
}
