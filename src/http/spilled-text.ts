// The text of a large answer, kept in a file while a check may still read it. A hostile target's
// answers of millions of items are 6-12 MB of text each, and checks hold their answers across later
// requests: in a heap snapshot of the 1e6 hostile run, 51 such texts were 376 of the 414 MB alive
// (the run peaked at 1.2-1.5 GB). Here an answer over LAZY_JSON_ABOVE_CHARS costs an open file and a
// few bytes; its text is read back when a check reads it, and only the last few read stay in memory
// (src/http/recently-read.ts), like their parsed JSON, so what a check holds is what it uses.
//
// The file is created only this user can read, and unlinked as soon as it is open: nothing is left
// behind however the process ends (even killed), and its descriptor is closed once no answer refers
// to it. Where no file can be made (no temporary directory, no descriptor left) the text stays in
// memory, as before.

import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RecentlyRead } from './recently-read.js';

const texts = new RecentlyRead<string>();
const descriptors = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // Already closed.
  }
});

/** The text of `bytes` (decoded as `text`), read from a file on demand. */
export interface SpilledText {
  read(): string;
}

class FileText implements SpilledText {
  constructor(
    private readonly fd: number,
    private readonly size: number,
    text: string,
  ) {
    // Whoever decoded it reads it again at once (recording, redaction): no file read then.
    texts.put(this, text);
  }

  read(): string {
    return texts.get(this, () => {
      const bytes = Buffer.allocUnsafe(this.size);
      for (let at = 0; at < this.size;) {
        const n = readSync(this.fd, bytes, at, this.size - at, at);
        if (n === 0) throw new Error(`a large answer's file ended at byte ${at} of ${this.size}`);
        at += n;
      }
      return bytes.toString('utf8');
    });
  }
}

/** An open, already unlinked file holding `bytes`; undefined when none can be made. */
function unlinkedFile(bytes: Buffer): number | undefined {
  const path = join(tmpdir(), `svc-certify-answer-${randomBytes(12).toString('hex')}`);
  let fd: number | undefined;
  try {
    fd = openSync(path, 'wx+', 0o600);
    unlinkSync(path);
    for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at, at);
    return fd;
  } catch {
    if (fd !== undefined) {
      closeSync(fd);
      try {
        unlinkSync(path);
      } catch {
        // Unlinked already.
      }
    }
    return undefined;
  }
}

/** `text` (the UTF-8 decoding of `bytes`) kept in a file when one can be made, else in memory. */
export function spillText(bytes: Buffer, text: string): SpilledText {
  const fd = unlinkedFile(bytes);
  if (fd === undefined) return { read: () => text };
  const spilled = new FileText(fd, bytes.length, text);
  descriptors.register(spilled, fd);
  return spilled;
}
