// How each kind of file is read: plain text (bundles, HTML, CSS, anything), HAR (every string of
// the log, base64 response bodies decoded) and source maps (`sourcesContent`, reported by source
// name). All three take the file as a sequence of latin1 chunks (one character per byte) and report
// findings as they go.

import type { Finding, SecretPrefix } from './finding.js';
import { formatJsonPath } from './json-path.js';
import { JsonStream, type StringRole } from './json-stream.js';
import { MAX_PENDING_FINDINGS, MAX_SOURCE_NAMES } from './limits.js';
import { cleanContext } from './match-rules.js';
import { TextMatcher, type TextMatch } from './text-matcher.js';

export interface PartScanner {
  write(chunk: string): void;
  end(): void;
}

export type FindingSink = (f: Finding) => void;

function toFinding(file: string, location: string | null, m: TextMatch): Finding {
  return {
    file,
    line: m.line,
    column: m.column,
    kind: m.kind,
    location,
    excerpt: m.excerpt,
    prefix: m.prefix as SecretPrefix,
  };
}

function joinLocation(outer: string | null, inner: string): string {
  return outer ? `${outer} › ${inner}` : inner;
}

/** Any text: line and column in the (decompressed) file. */
export function textScanner(file: string, location: string | null, sink: FindingSink): PartScanner {
  const matcher = new TextMatcher((m) => sink(toFinding(file, location, m)));
  return { write: (c) => matcher.push(c), end: () => matcher.end() };
}

/** Short string values a handler needs to remember (a header's name, a content's encoding). */
const SMALL_VALUE_LIMIT = 120;

/** Where a member name sits: the object it names a member of. */
function memberNameLocation(json: JsonStream): string {
  const path = formatJsonPath(json, json.depth - 1);
  return path === '' ? '(member name)' : `${path} (member name)`;
}

/**
 * HAR: every string is scanned (URLs, header and cookie values, query strings, postData, response
 * content, and member names), reported as `log.entries[N].<part>`; a header or cookie is also
 * named. A response `content.text` is also base64-decoded while it looks like base64, and those
 * findings are kept when the content turns out to say `"encoding": "base64"` (Chrome writes it after
 * the text). Locations are formatted only when a finding needs one; what is remembered about an open
 * object is keyed by its container id, so a value costs the same at any depth.
 */
export function harScanner(file: string, outer: string | null, sink: FindingSink): PartScanner {
  let role: StringRole = 'value';
  let nameSuffix = ''; // ` (x-partner-key)` for a header's value
  let small: string | undefined; // value of the current string when it is worth remembering
  let smallRole: 'name' | 'encoding' | undefined;
  let parentId = -1;
  const names = new Map<number, string>(); // open object → its `name` member
  const encodings = new Map<number, string>(); // open content object → its `encoding`
  const pendingBase64 = new Map<number, Finding[]>();
  let pendingTotal = 0;
  let base64: Base64Scan | undefined;

  const location = (): string =>
    role === 'member-name' ? memberNameLocation(json) : formatJsonPath(json) + nameSuffix;
  const matcher = new TextMatcher((m) => sink(toFinding(file, joinLocation(outer, location()), m)));

  const json: JsonStream = new JsonStream({
    strings: {
      start(r) {
        role = r;
        matcher.reset();
        base64 = undefined;
        small = undefined;
        if (r === 'member-name') return;
        const depth = json.depth;
        const last = depth > 0 ? json.segment(depth - 1) : undefined;
        const parentSegment = depth > 1 ? json.segment(depth - 2) : undefined;
        parentId = json.containerId();
        const name = last === 'value' ? names.get(parentId) : undefined;
        nameSuffix = name !== undefined ? ` (${cleanContext(name)})` : '';
        smallRole =
          last === 'name' ? 'name' : last === 'encoding' && parentSegment === 'content' ? 'encoding' : undefined;
        small = smallRole ? '' : undefined;
        if (last === 'text' && parentSegment === 'content') {
          let list = pendingBase64.get(parentId);
          if (list === undefined) pendingBase64.set(parentId, (list = []));
          const held = list;
          base64 = new Base64Scan((m) => {
            const f = toFinding(file, joinLocation(outer, `${location()} (base64-decoded)`), m);
            // Past the bound, reported without waiting for the encoding: reported rather than held without limit.
            if (pendingTotal < MAX_PENDING_FINDINGS) {
              held.push(f);
              pendingTotal++;
            } else sink(f);
          });
        }
      },
      chunk(text) {
        matcher.push(text);
        base64?.push(text);
        if (small !== undefined && small.length < SMALL_VALUE_LIMIT)
          small += text.slice(0, SMALL_VALUE_LIMIT - small.length);
      },
      end() {
        matcher.end();
        base64?.end();
        base64 = undefined;
        if (small !== undefined && smallRole === 'name') names.set(parentId, small);
        if (small !== undefined && smallRole === 'encoding') encodings.set(parentId, small);
        small = undefined;
      },
    },
    objectEnd(id) {
      names.delete(id);
      const pending = pendingBase64.get(id);
      if (pending) {
        if (encodings.get(id)?.toLowerCase() === 'base64') pending.forEach(sink);
        pendingTotal -= pending.length;
        pendingBase64.delete(id);
      }
      encodings.delete(id);
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
 * by the source's name (`sources[i]`, which may come before or after it); any other string, member
 * names included, by its path. Only the first MAX_SOURCE_NAMES names are kept: a map with millions
 * of `sources` must not become millions of strings; past them a finding is named by its index.
 */
export function sourceMapScanner(file: string, outer: string | null, sink: FindingSink): PartScanner {
  const sources: string[] = [];
  const pending: Array<{ index: number; finding: Finding }> = [];
  let role: StringRole = 'value';
  let sourceIndex: number | undefined;
  let sourceName: string | undefined;
  let nameIndex = -1;

  const matcher = new TextMatcher((m) => {
    // Names usually come first (bounded wait); past the cap the index stands in for the name.
    if (sourceIndex !== undefined && pending.length < MAX_PENDING_FINDINGS)
      pending.push({ index: sourceIndex, finding: toFinding(file, null, m) });
    else if (sourceIndex !== undefined) sink(toFinding(file, joinLocation(outer, `sourcesContent[${sourceIndex}]`), m));
    else
      sink(
        toFinding(
          file,
          joinLocation(outer, role === 'member-name' ? memberNameLocation(json) : formatJsonPath(json)),
          m,
        ),
      );
  });

  const json: JsonStream = new JsonStream({
    strings: {
      start(r) {
        role = r;
        matcher.reset();
        sourceIndex = undefined;
        sourceName = undefined;
        nameIndex = -1;
        if (r === 'member-name' || json.depth !== 2) return;
        const index = json.segment(1);
        if (typeof index !== 'number') return;
        const array = json.segment(0);
        if (array === 'sourcesContent') sourceIndex = index;
        else if (array === 'sources' && index < MAX_SOURCE_NAMES) {
          nameIndex = index;
          sourceName = '';
        }
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
