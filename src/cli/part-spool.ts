// The certifications of `report`'s inputs, kept on disk between the first reading and the reporters'
// passes: each input is read, checked against the schema and redacted once (the costly part, about
// 10 ms for a results.json of 10 KB), and each pass of a reporter then parses one line per
// certification from here. A line is the certification as results.json writes it, an exchange it
// repeats written once (shared-exchanges.ts), so a line costs what its input did; a private folder of
// the system's temporary directory, removed when `report` ends.

import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunResult } from '../runner/results.js';
import { referToSharedExchanges, resolveSharedExchanges } from '../report/shared-exchanges.js';
import { reshapeRedacted, type Redacted } from '../config/redacted.js';

const READ_CHUNK_BYTES = 1024 * 1024;
const NEWLINE = 0x0a;

export interface PartSpool {
  /** Appends a certification, redacted (as readResultsFile gives it). */
  add(part: Redacted<RunResult>): void;
  /** Every certification added, in order, parsed again on each pass: still redacted, never again. */
  readonly parts: Iterable<Redacted<RunResult>>;
  /** Removes the spool. */
  dispose(): void;
}

export function openPartSpool(): PartSpool {
  const dir = mkdtempSync(join(tmpdir(), 'svc-certify-report-'));
  const path = join(dir, 'parts.jsonl');
  const fd = openSync(path, 'wx', 0o600);
  let closed = false;
  const close = (): void => {
    if (!closed) closeSync(fd);
    closed = true;
  };
  return {
    add(part) {
      // An exchange the input shared (the same object after reading) is written once, as it was there.
      const line = JSON.stringify({ ...part, checks: referToSharedExchanges(part.checks, (exchange) => exchange) });
      writeSync(fd, `${line}\n`);
    },
    parts: {
      *[Symbol.iterator]() {
        close();
        // Each line was written by `add`, which takes only a Redacted part, to this private file.
        for (const line of linesOf(path))
          yield reshapeRedacted(JSON.parse(line) as Redacted<RunResult>, resolveSharedExchanges);
      },
    },
    dispose() {
      close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The file's lines, read a chunk at a time: a line is held, never the file. */
function* linesOf(path: string): Generator<string> {
  const fd = openSync(path, 'r');
  try {
    let pending: Buffer[] = [];
    const chunk = Buffer.allocUnsafe(READ_CHUNK_BYTES);
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      let start = 0;
      for (let end = chunk.indexOf(NEWLINE, start); end !== -1 && end < n; end = chunk.indexOf(NEWLINE, start)) {
        pending.push(Buffer.from(chunk.subarray(start, end)));
        yield Buffer.concat(pending).toString('utf8');
        pending = [];
        start = end + 1;
      }
      if (start < n) pending.push(Buffer.from(chunk.subarray(start, n)));
    }
    if (pending.length > 0) yield Buffer.concat(pending).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
