// How each kind of file is read: plain text (bundles, HTML, CSS, anything), HAR (every string of
// the log, base64 response bodies decoded) and source maps (`sourcesContent`, reported by source
// name). All three take the file as a sequence of latin1 chunks (one character per byte) and report
// findings as they go.

import type { Finding, SecretPrefix } from './finding.js';
import { formatJsonPath } from './json-path.js';
import { JsonStream, type PathSegment } from './json-stream.js';
import { cleanContext } from './match-rules.js';
import { TextMatcher, type TextMatch } from './text-matcher.js';

export interface PartScanner {
  write(chunk: string): void;
  end(): void;
}

export type FindingSink = (f: Finding) => void;

function toFinding(file: string, location: string | null, m: TextMatch): Finding {
  return { file, line: m.line, column: m.column, kind: m.kind, location, excerpt: m.excerpt, prefix: m.prefix as SecretPrefix };
}

function joinLocation(outer: string | null, inner: string): string {
  return outer ? `${outer} › ${inner}` : inner;
}

/** Any text: line and column in the (decompressed) file. */
export function textScanner(file: string, location: string | null, sink: FindingSink): PartScanner {
  const matcher = new TextMatcher((m) => sink(toFinding(file, location, m)));
  return { write: (c) => matcher.push(c), end: () => matcher.end() };
}

const PENDING_LIMIT = 5000;

/** Short string values a handler needs to remember (a header's name, a content's encoding). */
const SMALL_VALUE_LIMIT = 120;

/**
 * HAR: every string value is scanned (URLs, header and cookie values, query strings, postData,
 * response content), reported as `log.entries[N].<part>`; a header or cookie is also named. A
 * response `content.text` is also base64-decoded while it looks like base64, and those findings are
 * kept when the content turns out to say `"encoding": "base64"` (Chrome writes it after the text).
 */
export function harScanner(file: string, outer: string | null, sink: FindingSink): PartScanner {
  let location = '';
  let small: string | undefined; // value of the current string when it is worth remembering
  let smallRole: 'name' | 'encoding' | undefined;
  let parentKey = '';
  const names = new Map<string, string>(); // parent path → its `name` member
  const encodings = new Map<string, string>(); // content path → its `encoding`
  const pendingBase64 = new Map<string, Finding[]>();
  let base64: Base64Scan | undefined;

  const matcher = new TextMatcher((m) => sink(toFinding(file, joinLocation(outer, location), m)));

  const json = new JsonStream({
    strings: {
      start(path) {
        const parent = path.slice(0, -1);
        parentKey = parent.join('\u0000');
        const last = path[path.length - 1];
        const name = last === 'value' ? names.get(parentKey) : undefined;
        location = formatJsonPath(path) + (name !== undefined ? ` (${cleanContext(name)})` : '');
        smallRole = last === 'name' ? 'name' : last === 'encoding' && parent[parent.length - 1] === 'content' ? 'encoding' : undefined;
        small = smallRole ? '' : undefined;
        matcher.reset();
        if (last === 'text' && parent[parent.length - 1] === 'content') {
          const here = location;
          const list: Finding[] = [];
          pendingBase64.set(parentKey, list);
          base64 = new Base64Scan((m) => list.length < PENDING_LIMIT && list.push(toFinding(file, joinLocation(outer, `${here} (base64-decoded)`), m)));
        } else base64 = undefined;
      },
      chunk(text) {
        matcher.push(text);
        base64?.push(text);
        if (small !== undefined && small.length < SMALL_VALUE_LIMIT) small += text.slice(0, SMALL_VALUE_LIMIT - small.length);
      },
      end() {
        matcher.end();
        base64?.end();
        base64 = undefined;
        if (small !== undefined && smallRole === 'name') names.set(parentKey, small);
        if (small !== undefined && smallRole === 'encoding') encodings.set(parentKey, small);
        small = undefined;
      },
    },
    objectEnd(path: readonly PathSegment[]) {
      const key = path.join('\u0000');
      names.delete(key);
      const pending = pendingBase64.get(key);
      if (pending) {
        if (encodings.get(key)?.toLowerCase() === 'base64') pending.forEach(sink);
        pendingBase64.delete(key);
      }
      encodings.delete(key);
    },
  });
  return { write: (c) => json.write(c), end: () => json.end() };
}

const BASE64_TEXT = /^[A-Za-z0-9+/=_\-\r\n\t ]*$/;
const BASE64_SPACE = /[\r\n\t ]/;
const BASE64_SPACE_ALL = /[\r\n\t ]/g;

/** Base64 text decoded as it streams; gives up (silently) at the first character outside base64. */
class Base64Scan {
  private rest = '';
  private valid = true;
  private readonly matcher: TextMatcher;

  constructor(onMatch: (m: TextMatch) => void) {
    this.matcher = new TextMatcher(onMatch);
  }

  push(text: string): void {
    if (!this.valid) return;
    // Validity first (it stops at the first character that is not base64), then the line breaks.
    if (!BASE64_TEXT.test(text)) {
      this.valid = false;
      return;
    }
    const clean = BASE64_SPACE.test(text) ? text.replace(BASE64_SPACE_ALL, '') : text;
    const all = this.rest + clean;
    const whole = all.length - (all.length % 4);
    this.rest = all.slice(whole);
    if (whole > 0) this.matcher.push(Buffer.from(all.slice(0, whole), 'base64').toString('latin1'));
  }

  end(): void {
    if (!this.valid) return;
    if (this.rest.length > 0) this.matcher.push(Buffer.from(this.rest, 'base64').toString('latin1'));
    this.matcher.end();
  }
}

/**
 * Source map: `sourcesContent[i]` is scanned with line and column inside that source and reported
 * by the source's name (`sources[i]`, which may come before or after it); any other string by its path.
 */
export function sourceMapScanner(file: string, outer: string | null, sink: FindingSink): PartScanner {
  const sources: string[] = [];
  const pending: Array<{ index: number; finding: Finding }> = [];
  let location = '';
  let sourceIndex: number | undefined;
  let sourceName: string | undefined;
  let nameIndex = -1;

  const matcher = new TextMatcher((m) => {
    // Names usually come first (bounded wait); past the cap the index stands in for the name.
    if (sourceIndex !== undefined && pending.length < PENDING_LIMIT) pending.push({ index: sourceIndex, finding: toFinding(file, null, m) });
    else if (sourceIndex !== undefined) sink(toFinding(file, joinLocation(outer, `sourcesContent[${sourceIndex}]`), m));
    else sink(toFinding(file, joinLocation(outer, location), m));
  });

  const json = new JsonStream({
    strings: {
      start(path) {
        matcher.reset();
        const inArray = path.length === 2 && typeof path[1] === 'number';
        sourceIndex = inArray && path[0] === 'sourcesContent' ? (path[1] as number) : undefined;
        nameIndex = inArray && path[0] === 'sources' ? (path[1] as number) : -1;
        sourceName = nameIndex >= 0 ? '' : undefined;
        location = formatJsonPath(path);
      },
      chunk(text) {
        matcher.push(text);
        if (sourceName !== undefined && sourceName.length < 300) sourceName += text.slice(0, 300 - sourceName.length);
      },
      end() {
        matcher.end();
        if (sourceName !== undefined) sources[nameIndex] = sourceName;
        sourceName = undefined;
        sourceIndex = undefined;
      },
    },
  });
  return {
    write: (c) => json.write(c),
    end: () => {
      json.end();
      for (const { index, finding } of pending) {
        const name = sources[index];
        const where = name !== undefined ? `source ${cleanContext(name)}` : `sourcesContent[${index}]`;
        sink({ ...finding, location: joinLocation(outer, where) });
      }
    },
  };
}
