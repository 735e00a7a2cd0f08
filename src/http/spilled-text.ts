// The text of a large answer, kept in a file while a check may still read it. A hostile target's
// answers of millions of items are 6-12 MB of text each, and checks hold their answers across later
// requests: in a heap snapshot of the 1e6 hostile run, 51 such texts were 376 of the 414 MB alive
// (the run peaked at 1.2-1.5 GB). Here an answer over LAZY_JSON_ABOVE_CHARS costs its file and a few
// bytes; its text is read back when a check reads it, and only the last few read stay in memory
// (src/http/recently-read.ts), like their parsed JSON, so what a check holds is what it uses. The files are the target's own answers, in a directory only this user
// can read, deleted when no answer refers to them and at exit. Where no file can be written the text
// stays in memory, as before.

import { mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RecentlyRead } from './recently-read.js';

let directory: string | undefined;
let written = 0;

const texts = new RecentlyRead<string>();
const files = new FinalizationRegistry<string>((path) => {
  try {
    unlinkSync(path);
  } catch {
    // Already gone with its directory.
  }
});

function spillDirectory(): string {
  if (directory === undefined) {
    const made = mkdtempSync(join(tmpdir(), 'svc-certify-answers-'));
    process.once('exit', () => rmSync(made, { recursive: true, force: true }));
    directory = made;
  }
  return directory;
}

/** The text of `bytes` (decoded as `text`), read from a file on demand. */
export interface SpilledText {
  read(): string;
}

class FileText implements SpilledText {
  constructor(
    private readonly path: string,
    text: string,
  ) {
    // Whoever decoded it reads it again at once (recording, redaction): no file read then.
    texts.put(this, text);
  }

  read(): string {
    return texts.get(this, () => readFileSync(this.path).toString('utf8'));
  }
}

/** `text` (the UTF-8 decoding of `bytes`) kept in a file when one can be written, else in memory. */
export function spillText(bytes: Buffer, text: string): SpilledText {
  let path: string;
  try {
    path = join(spillDirectory(), `${written++}.body`);
    writeFileSync(path, bytes, { mode: 0o600 });
  } catch {
    return { read: () => text };
  }
  const spilled = new FileText(path, text);
  files.register(spilled, path);
  return spilled;
}
