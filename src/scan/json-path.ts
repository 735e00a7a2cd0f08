import type { PathSegment } from './json-stream.js';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `log.entries[3].request.headers[1].value`: how a person would write the path in JavaScript. */
export function formatJsonPath(path: readonly PathSegment[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (IDENTIFIER.test(seg)) out += out === '' ? seg : `.${seg}`;
    else out += `[${JSON.stringify(seg.length > 40 ? `${seg.slice(0, 40)}…` : seg)}]`;
  }
  return out;
}
