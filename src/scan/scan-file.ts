// One file, streamed: decompression layers by extension (`.gz`, `.tgz`, `.br`, `.zz`, `.deflate`, possibly
// stacked) or by the signature at its start (gzip and zlib whatever the name), then the reader for what
// is inside (`.har`, `.map`, anything else as text: a tar archive stores its files as they are, so it is
// searched as text). A HAR or source map that is not valid JSON is scanned again as plain text, so a
// broken file is still searched. What cannot be read (a zip archive, data that does not decompress) is
// a `not-scanned` finding, never a pass.

import { createReadStream } from 'node:fs';
import { open as openFile, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib';
import type { Finding } from './finding.js';
import { JsonDepthError, JsonSyntaxError } from './json-stream.js';
import {
  MAX_DECOMPRESSED_BYTES,
  MAX_DECOMPRESSION_LAYERS,
  MAX_DECOMPRESSION_RATIO,
  MAX_HELD_FINDINGS,
  RATIO_CHECK_FROM_BYTES,
} from './limits.js';
import { harScanner, sourceMapScanner, textScanner, type FindingSink, type PartScanner } from './part-scanners.js';
import { errnoOrMessage } from '../narrow.js';
import { SCANNED_PREFIXES } from '../secret-shapes.js';

const READ_CHUNK_BYTES = 1 << 20;
const MiB = 1 << 20;

export class ScanPathError extends Error {
  override name = 'ScanPathError';
}

/** The file cannot be read within the bounds (limits.ts): reported as a `not-scanned` finding. */
class NotScannedError extends Error {
  constructor(
    readonly reason: string,
    readonly bytes: number,
  ) {
    super(reason);
  }
}

/** What a layer gave starts with the gzip signature: one more layer to undo (counted toward the same bounds). */
class NestedGzip extends Error {}

type Layer = 'gzip' | 'brotli' | 'zlib' | 'deflate-raw';
type Format = 'text' | 'har' | 'source-map';

/** `.deflate` is zlib-wrapped or raw deflate: the file's first bytes decide (`resolveDeflate`). */
type NamedLayer = Layer | 'deflate';

function classify(file: string): { layers: NamedLayer[]; format: Format } {
  const layers: NamedLayer[] = [];
  let name = file.toLowerCase();
  for (;;) {
    if (name.endsWith('.gz')) layers.unshift('gzip');
    else if (name.endsWith('.tgz')) {
      layers.unshift('gzip');
      name = `${name.slice(0, -4)}.tar.gz`;
    } else if (name.endsWith('.br')) layers.unshift('brotli');
    else if (name.endsWith('.zz')) layers.unshift('zlib');
    else if (name.endsWith('.deflate')) layers.unshift('deflate');
    else break;
    name = name.slice(0, name.lastIndexOf('.'));
  }
  const format: Format = name.endsWith('.har') ? 'har' : name.endsWith('.map') ? 'source-map' : 'text';
  // Outermost layer first in the pipeline: "a.js.br.gz" is gunzipped, then brotli-decompressed.
  return { layers: layers.reverse(), format };
}

/** What the first bytes of a file say it is, whatever its name. */
type Signature = 'gzip' | 'zlib' | 'zip' | undefined;

function signatureOf(head: Buffer): Signature {
  if (isGzip(head)) return 'gzip';
  // PK\x03\x04 (an entry), PK\x05\x06 (an empty archive), PK\x07\x08 (a spanned one).
  if (head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && [3, 5, 7].includes(head[2]!)) return 'zip';
  // A zlib header: deflate (CM 8), a window of at most 32 KiB, a check that divides by 31. Only the
  // levels written as a byte no text starts with (0x01, 0x9c, 0xda): "x^" is also a valid header.
  const [cmf, flg] = [head[0], head[1]];
  if (cmf === 0x78 && (flg === 0x01 || flg === 0x9c || flg === 0xda)) return 'zlib';
  return undefined;
}

async function readSignature(path: string | Buffer): Promise<Signature> {
  const handle = await openFile(path, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    return signatureOf(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/** The scan stopped for a signal, after `bytes` bytes of the file. */
export class ScanInterrupted extends Error {
  constructor(readonly bytes: number) {
    super('scan interrupted');
  }
}

/** Every stream of the pipeline, the file's first: all are destroyed when the read stops early. */
/** Every stream of the chain (to destroy them all) and the last one (to read the plain bytes from). */
function decompressor(layer: Layer): Readable & NodeJS.WritableStream {
  const opts = { chunkSize: 256 * 1024 };
  if (layer === 'gzip') return createGunzip(opts);
  if (layer === 'zlib') return createInflate(opts);
  if (layer === 'deflate-raw') return createInflateRaw(opts);
  return createBrotliDecompress(opts);
}

function open(path: string | Buffer, layers: Layer[]): { streams: Readable[]; last: Readable } {
  let last: Readable = createReadStream(path, { highWaterMark: READ_CHUNK_BYTES });
  const streams = [last];
  for (const layer of layers) {
    const prev = last;
    const next = decompressor(layer);
    prev.on('error', (e) => next.destroy(e));
    last = prev.pipe(next);
    streams.push(last);
  }
  return { streams, last };
}

function isGzip(buf: Buffer): boolean {
  return buf.length >= 3 && buf[0] === 0x1f && buf[1] === 0x8b && buf[2] === 0x08;
}

function mib(bytes: number): string {
  return `${(bytes / MiB).toFixed(bytes < MiB ? 2 : 0)} MiB`;
}

/** Throws NotScannedError once decompressed output passes a bound. */
function checkBounds(bytes: number, compressedBytes: number): void {
  if (bytes > MAX_DECOMPRESSED_BYTES) {
    throw new NotScannedError(
      `decompresses past ${mib(MAX_DECOMPRESSED_BYTES)}; decompress it and scan the plain file`,
      bytes,
    );
  }
  if (bytes > RATIO_CHECK_FROM_BYTES && bytes > MAX_DECOMPRESSION_RATIO * compressedBytes) {
    throw new NotScannedError(
      `decompresses past ${mib(bytes)} from ${mib(compressedBytes)}, more than ${MAX_DECOMPRESSION_RATIO} times its size (a compression bomb?); decompress it and scan the plain file`,
      bytes,
    );
  }
}

async function feed(
  src: Source,
  layers: Layer[],
  scanner: PartScanner,
  compressedBytes: number,
  signal?: AbortSignal,
): Promise<number> {
  const { streams, last } = open(src.path, layers);
  let bytes = 0;
  try {
    for await (const chunk of last) {
      // Checked per chunk (256 KiB): a signal ends the scan of a file of gigabytes at once.
      if (signal?.aborted) throw new ScanInterrupted(bytes);
      const buf = chunk as Buffer;
      if (bytes === 0 && layers.length > 0 && isGzip(buf)) throw new NestedGzip();
      bytes += buf.length;
      if (layers.length > 0) checkBounds(bytes, compressedBytes);
      scanner.write(buf.toString('latin1'));
    }
  } catch (e) {
    if (
      e instanceof JsonSyntaxError ||
      e instanceof NotScannedError ||
      e instanceof NestedGzip ||
      e instanceof ScanInterrupted
    )
      throw e;
    const err = e as NodeJS.ErrnoException;
    const what = layers.length > 0 && !err.syscall ? `cannot decompress (${layers.join(', ')})` : 'cannot read';
    throw new ScanPathError(`${what} ${src.name}: ${err.code ? `${err.code} ` : ''}${err.message}`);
  } finally {
    for (const s of streams) s.destroy();
  }
  scanner.end();
  return bytes;
}

/** One `not-scanned` finding per string: what was not read may hold either, so both checks fail. */
export function notScanned(file: string, location: string | null, reason: string): Finding[] {
  return SCANNED_PREFIXES.map((prefix) => ({
    file,
    line: 1,
    column: 1,
    kind: 'not-scanned',
    location,
    excerpt: `not scanned: ${reason}`,
    prefix,
  }));
}

function outerLocation(layers: Layer[]): string | null {
  return layers.length > 0 ? `${layers.join(' › ')}-decompressed` : null;
}

/** A file as shown (`name`) and as opened (`path`: bytes when its name is not valid UTF-8). */
interface Source {
  name: string;
  path: string | Buffer;
}

/** Why a zip archive is not read: its entries are compressed one by one, each its own stream. */
const ZIP_NOT_SCANNED = 'zip archive (its entries are compressed one by one); unzip it and scan the folder';

/**
 * Scans one file; returns the bytes scanned (after decompression). Throws ScanPathError when it
 * cannot be read; reports a `not-scanned` finding when it cannot be read within the bounds, or is an
 * archive it does not read (zip). `path` opens it when its name (`file`, as shown) is not the path.
 */
export async function scanFile(
  file: string,
  sink: FindingSink,
  signal?: AbortSignal,
  path: string | Buffer = file,
): Promise<number> {
  const src: Source = { name: file, path };
  const classified = classify(file);
  let signature: Signature;
  try {
    signature = await readSignature(path);
  } catch (e) {
    throw new ScanPathError(`cannot read ${file}: ${errnoOrMessage(e)}`);
  }
  if (signature === 'zip' && classified.layers.length === 0) {
    notScanned(file, null, ZIP_NOT_SCANNED).forEach(sink);
    return 0;
  }
  // `.deflate` outermost: zlib-wrapped when its header says so, raw deflate otherwise.
  const layers: Layer[] = classified.layers.map((l, i) =>
    l === 'deflate' ? (i === 0 && signature !== 'zlib' ? 'deflate-raw' : 'zlib') : l,
  );
  // Compressed whatever the name says (a gzip-encoded bundle saved as served.js).
  if (layers.length === 0 && (signature === 'gzip' || signature === 'zlib')) layers.push(signature);
  let compressedBytes = 0;
  if (layers.length > 0) {
    try {
      compressedBytes = (await stat(path)).size;
    } catch (e) {
      throw new ScanPathError(`cannot read ${file}: ${errnoOrMessage(e)}`);
    }
  }
  for (;;) {
    try {
      return await scanLayers(src, layers, classified.format, sink, compressedBytes, signal);
    } catch (e) {
      if (!(e instanceof NestedGzip)) throw e;
      if (layers.length >= MAX_DECOMPRESSION_LAYERS) {
        notScanned(file, outerLocation(layers), `still gzip-compressed after ${layers.length} layers`).forEach(sink);
        return 0;
      }
      layers.push('gzip');
    }
  }
}

async function scanLayers(
  src: Source,
  layers: Layer[],
  format: Format,
  sink: FindingSink,
  compressedBytes: number,
  signal?: AbortSignal,
): Promise<number> {
  const outer = outerLocation(layers);
  if (format === 'text') return scanText(src, layers, outer, sink, compressedBytes, signal);
  // Findings of a structured read are released once the whole file parsed as JSON (a broken file
  // is rescanned as text, which finds them again); past the cap they go out at once, so memory stays bounded.
  const held: Finding[] = [];
  const hold: FindingSink = (f) => (held.length < MAX_HELD_FINDINGS ? held.push(f) : sink(f));
  try {
    const scanner = format === 'har' ? harScanner(src.name, outer, hold) : sourceMapScanner(src.name, outer, hold);
    const bytes = await feed(src, layers, scanner, compressedBytes, signal);
    held.forEach(sink);
    return bytes;
  } catch (e) {
    if (e instanceof NotScannedError) {
      // What was read is reported; the rest is not scanned.
      held.forEach(sink);
      notScanned(src.name, outer, e.reason).forEach(sink);
      return e.bytes;
    }
    if (!(e instanceof JsonSyntaxError)) throw e;
    const why = e instanceof JsonDepthError ? `${e.message}, scanned as text` : 'not valid JSON, scanned as text';
    return scanText(src, layers, outer ? `${outer} › ${why}` : why, sink, compressedBytes, signal);
  }
}

async function scanText(
  src: Source,
  layers: Layer[],
  location: string | null,
  sink: FindingSink,
  compressedBytes: number,
  signal?: AbortSignal,
): Promise<number> {
  const scanner = textScanner(src.name, location, sink);
  try {
    return await feed(src, layers, scanner, compressedBytes, signal);
  } catch (e) {
    if (!(e instanceof NotScannedError)) throw e;
    scanner.end();
    notScanned(src.name, location, e.reason).forEach(sink);
    return e.bytes;
  }
}
