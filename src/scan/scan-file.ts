// One file, streamed: decompression layers by extension (`.gz`, `.br`, possibly stacked), then the
// reader for what is inside (`.har`, `.map`, anything else as text). A HAR or source map that is not
// valid JSON is scanned again as plain text, so a broken file is still searched.

import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip } from 'node:zlib';
import type { Finding } from './finding.js';
import { JsonSyntaxError } from './json-stream.js';
import { harScanner, sourceMapScanner, textScanner, type FindingSink, type PartScanner } from './part-scanners.js';

const READ_CHUNK_BYTES = 1 << 20;
const HOLD_LIMIT = 10_000;

export class ScanPathError extends Error {
  override name = 'ScanPathError';
}

type Layer = 'gzip' | 'brotli';
type Format = 'text' | 'har' | 'source-map';

function classify(file: string): { layers: Layer[]; format: Format } {
  const layers: Layer[] = [];
  let name = file.toLowerCase();
  for (;;) {
    if (name.endsWith('.gz')) layers.unshift('gzip');
    else if (name.endsWith('.br')) layers.unshift('brotli');
    else break;
    name = name.slice(0, name.lastIndexOf('.'));
  }
  const format: Format = name.endsWith('.har') ? 'har' : name.endsWith('.map') ? 'source-map' : 'text';
  // Outermost layer first in the pipeline: "a.js.br.gz" is gunzipped, then brotli-decompressed.
  return { layers: layers.reverse(), format };
}

function open(file: string, layers: Layer[]): Readable {
  let stream: Readable = createReadStream(file, { highWaterMark: READ_CHUNK_BYTES });
  for (const layer of layers) {
    const next = layer === 'gzip' ? createGunzip({ chunkSize: 256 * 1024 }) : createBrotliDecompress({ chunkSize: 256 * 1024 });
    stream.on('error', (e) => next.destroy(e));
    stream = stream.pipe(next);
  }
  return stream;
}

async function feed(file: string, layers: Layer[], scanner: PartScanner): Promise<number> {
  let bytes = 0;
  try {
    for await (const chunk of open(file, layers)) {
      const buf = chunk as Buffer;
      bytes += buf.length;
      scanner.write(buf.toString('latin1'));
    }
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw e;
    const err = e as NodeJS.ErrnoException;
    const what = layers.length > 0 && !err.syscall ? `cannot decompress (${layers.join(', ')})` : 'cannot read';
    throw new ScanPathError(`${what} ${file}: ${err.code ? `${err.code} ` : ''}${err.message}`);
  }
  scanner.end();
  return bytes;
}

/** Scans one file; returns the bytes scanned (after decompression). Throws ScanPathError when it cannot be read. */
export async function scanFile(file: string, sink: FindingSink): Promise<number> {
  const { layers, format } = classify(file);
  const outer = layers.length > 0 ? `${layers.join(' › ')}-decompressed` : null;
  if (format === 'text') return feed(file, layers, textScanner(file, outer, sink));
  // Findings of a structured read are released once the whole file parsed as JSON (a broken file
  // is rescanned as text, which finds them again); past the cap they go out at once, so memory stays bounded.
  const held: Finding[] = [];
  const hold: FindingSink = (f) => (held.length < HOLD_LIMIT ? held.push(f) : sink(f));
  try {
    const scanner = format === 'har' ? harScanner(file, outer, hold) : sourceMapScanner(file, outer, hold);
    const bytes = await feed(file, layers, scanner);
    held.forEach(sink);
    return bytes;
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
    const where = outer ? `${outer} › not valid JSON, scanned as text` : 'not valid JSON, scanned as text';
    return feed(file, layers, textScanner(file, where, sink));
  }
}
