// `log.entries[3].request.headers[1].value`: a JSON path as a person would write it in JavaScript,
// made only when a finding needs it, and bounded: its start and its end are shown (the middle of a
// 1000-level path is elided), a long member name is cut, and a key used as a member name shows its
// first 12 characters only.

import type { JsonPath, PathSegment } from './json-stream.js';
import { MAX_LOCATION_HEAD_CHARS, MAX_LOCATION_TAIL_CHARS, MAX_SEGMENT_CHARS } from './limits.js';
import { truncateSecrets } from './redact.js';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function formatSegment(seg: PathSegment, first: boolean): string {
  if (typeof seg === 'number') return `[${seg}]`;
  // Cut a key to 12 characters first: then the name is shown as it would be anywhere else.
  const safe = truncateSecrets(seg);
  if (safe.length <= MAX_SEGMENT_CHARS && IDENTIFIER.test(safe)) return first ? safe : `.${safe}`;
  return `[${JSON.stringify(safe.length > MAX_SEGMENT_CHARS ? `${safe.slice(0, MAX_SEGMENT_CHARS)}…` : safe)}]`;
}

/** The first `depth` segments of `path` (all by default); a cost bounded by the shown length, not the depth. */
export function formatJsonPath(path: JsonPath, depth: number = path.depth): string {
  let head = '';
  let d = 0;
  for (; d < depth; d++) {
    const s = formatSegment(path.segment(d), d === 0);
    if (head.length + s.length > MAX_LOCATION_HEAD_CHARS) break;
    head += s;
  }
  if (d === depth) return head;
  let tail = '';
  let e = depth - 1;
  for (; e >= d; e--) {
    const s = formatSegment(path.segment(e), e === 0);
    if (tail.length + s.length > MAX_LOCATION_TAIL_CHARS) break;
    tail = s + tail;
  }
  return e < d ? head + tail : `${head}…${tail}`;
}

/** The same for a path held as an array (tests, small callers). */
export function formatPathSegments(segments: readonly PathSegment[]): string {
  return formatJsonPath({ depth: segments.length, segment: (d) => segments[d] ?? '', containerId: () => -1 });
}
