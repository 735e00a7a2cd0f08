// A streaming matcher: text arrives in chunks of any size (a 50 MB one-line bundle, a HAR string
// decoded piece by piece) and matches come out with their line and column, in bounded memory: only
// a small window around the chunk boundary is kept (the boundary test looks back, the kind test
// looks ahead).

import type { FindingKind, SecretPrefix } from './finding.js';
import { scannedOfStem } from './redact.js';
import {
  atBoundary,
  cleanContext,
  decodeWindow,
  kindOf,
  LOOKAHEAD_CHARS,
  LOOKBEHIND_CHARS,
  MATCH_SOURCE,
  previewMatch,
} from './match-rules.js';

export interface TextMatch {
  prefix: SecretPrefix;
  kind: FindingKind;
  line: number;
  column: number;
  excerpt: string;
}

/**
 * `latin1-utf8`: each character is one byte of UTF-8 text (fast to make from a Buffer); a column
 * counts the bytes that start a code point. `utf16`: ordinary JS text; a column counts code points.
 */
export type TextEncoding = 'latin1-utf8' | 'utf16';

const EXCERPT_BEFORE = 24;
// One compiled pattern for every matcher (a HAR makes one matcher per string value): use is
// synchronous and lastIndex is set before each scan, so sharing is safe.
const MATCH_RE = new RegExp(MATCH_SOURCE, 'g');
/** UTF-8 continuation bytes (10xxxxxx) do not start a code point. */
const CONTINUATION_RE = /[\x80-\xbf]/g;
/** A low surrogate completes the code point its high surrogate started. */
const LOW_SURROGATE_RE = /[\udc00-\udfff]/g;

export class TextMatcher {
  private buf = '';
  /** Absolute offset of buf[0]. */
  private bufStart = 0;
  /** Matches starting before this absolute offset were handled. */
  private handled = 0;
  private line = 1;
  private lineStart = 0;
  /** Newlines are counted up to here. */
  private counted = 0;
  /** Code points between lineStart and colCounted. */
  private colCount = 0;
  private colCounted = 0;

  constructor(
    private readonly onMatch: (m: TextMatch) => void,
    private readonly encoding: TextEncoding = 'latin1-utf8',
  ) {}

  /** Ready for a new text (the same matcher serves many small HAR strings). */
  reset(): void {
    this.buf = '';
    this.bufStart = this.handled = this.lineStart = this.counted = this.colCount = this.colCounted = 0;
    this.line = 1;
  }

  push(chunk: string): void {
    if (chunk.length === 0) return;
    this.buf = this.buf.length === 0 ? chunk : this.buf + chunk;
    this.scan(false);
  }

  end(): void {
    this.scan(true);
    this.buf = '';
  }

  private scan(final: boolean): void {
    const buf = this.buf;
    const limit = final ? buf.length : buf.length - LOOKAHEAD_CHARS;
    if (limit > this.handled - this.bufStart) {
      const re = MATCH_RE;
      re.lastIndex = Math.max(0, this.handled - this.bufStart);
      for (let m = re.exec(buf); m !== null && m.index < limit; m = re.exec(buf)) {
        if (!atBoundary(buf, m.index)) continue;
        this.report(buf, m.index, m[0].length, scannedOfStem(m[1] ?? ''));
      }
      this.handled = this.bufStart + limit;
    }
    // Keep what the next scan needs: the unhandled tail and the context before it.
    const keepFrom = Math.max(0, this.handled - this.bufStart - LOOKBEHIND_CHARS);
    this.advanceCounters(buf, this.bufStart + keepFrom);
    if (keepFrom > 0) {
      this.buf = buf.slice(keepFrom);
      this.bufStart += keepFrom;
    }
  }

  private report(buf: string, index: number, length: number, prefix: SecretPrefix): void {
    const abs = this.bufStart + index;
    this.advanceCounters(buf, abs);
    const after = decodeWindow(buf.slice(index + length, index + LOOKAHEAD_CHARS));
    const lineFrom = Math.max(this.lineStart - this.bufStart, 0);
    let before = buf.slice(Math.max(lineFrom, index - EXCERPT_BEFORE), index);
    let rawMatch = buf.slice(index, index + 2 * LOOKBEHIND_CHARS);
    if (this.encoding === 'latin1-utf8') {
      before = Buffer.from(before, 'latin1').toString('utf8');
      rawMatch = Buffer.from(rawMatch, 'latin1').toString('utf8');
    }
    this.onMatch({
      prefix,
      kind: kindOf(prefix, after),
      line: this.line,
      column: this.colCount + 1,
      excerpt: `${cleanContext(before)}${previewMatch(rawMatch)}`,
    });
  }

  /** Counts newlines and code points of the current line up to absolute offset `to`. */
  private advanceCounters(buf: string, to: number): void {
    const base = this.bufStart;
    if (to > this.counted) {
      let nl = buf.indexOf('\n', this.counted - base);
      while (nl !== -1 && nl < to - base) {
        this.line++;
        this.lineStart = base + nl + 1;
        nl = buf.indexOf('\n', nl + 1);
      }
      this.counted = to;
    }
    if (this.colCounted < this.lineStart) {
      this.colCounted = this.lineStart;
      this.colCount = 0;
    }
    if (to > this.colCounted) {
      this.colCount += this.codePoints(buf, this.colCounted - base, to - base);
      this.colCounted = to;
    }
  }

  private codePoints(buf: string, from: number, to: number): number {
    // Most text is ASCII: find the first character that does not count on its own, natively.
    const re = this.encoding === 'latin1-utf8' ? CONTINUATION_RE : LOW_SURROGATE_RE;
    re.lastIndex = from;
    let m = re.exec(buf);
    let skipped = 0;
    while (m !== null && m.index < to) {
      skipped++;
      m = re.exec(buf);
    }
    return to - from - skipped;
  }
}
