// A streaming JSON reader for files too big to JSON.parse whole (a 200 MB HAR): it keeps only the
// path to the current value and hands strings (values and member names) over in decoded pieces, so
// a 10 MB response body inside a HAR never sits in memory at once. Numbers, booleans and null are
// skipped. Bounded against hostile input: nesting past MAX_JSON_DEPTH stops the read (the caller
// searches the file as text instead), and the path is a stack read in place, never copied per value,
// so time stays linear in the input however deep the values sit.

import { MAX_JSON_DEPTH, MAX_KEY_CHARS } from './limits.js';

export type PathSegment = string | number;

/**
 * The path to the current string, read in place (valid only during the sink's calls): segment 0 is
 * the outermost member name or index. While a member name is being read, the last segment is still
 * the previous member's (or ''): the name's own object is the first `depth - 1` segments.
 */
export interface JsonPath {
  readonly depth: number;
  segment(d: number): PathSegment;
  /** A number naming the innermost open object or array for as long as it is open (-1: none). */
  containerId(): number;
}

/** `value`: a string value; `member-name`: the name of an object member (a key is searched too). */
export type StringRole = 'value' | 'member-name';

interface JsonStringSink {
  /** A string starts; `JsonStream#path` says where. */
  start(role: StringRole): void;
  /** Decoded text of the current string. */
  chunk(text: string): void;
  end(): void;
}

export interface JsonStreamHandler {
  /** Receives every string, member names included. */
  strings: JsonStringSink;
  /** The object `id` (its `containerId()` while it was open) closes: a handler settles what it learned about it. */
  objectEnd?(id: number): void;
}

export class JsonSyntaxError extends Error {
  override name = 'JsonSyntaxError';
}

/** Nesting past MAX_JSON_DEPTH: not read as JSON (a caller that falls back on JsonSyntaxError still does). */
export class JsonDepthError extends JsonSyntaxError {
  override name = 'JsonDepthError';
}

// One shape for both kinds of container, so that the stack stays monomorphic.
interface Frame {
  object: boolean;
  key: string | undefined;
  index: number;
  id: number;
}

const enum State {
  Value, // a value is expected
  AfterValue, // ',' or a closing bracket is expected
  Key, // a key string or '}' is expected
  Colon,
  InString,
  InLiteral, // number, true, false, null
  Done,
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};
/** What `\x` stands for, by the char code of x (undefined: not a simple escape). */
const SIMPLE_BY_CODE: Array<string | undefined> = [];
for (const [k, v] of Object.entries(SIMPLE_ESCAPES)) SIMPLE_BY_CODE[k.charCodeAt(0)] = v;
const HEX4 = /^[0-9a-fA-F]{4}$/;

/**
 * Decodes the JSON escapes of a string's content (an invalid escape is kept as written: this reader
 * searches, it does not validate). A plain loop: a replace() callback per escape was half the time
 * of a HAR scan.
 */
function decodeEscapes(segment: string): string {
  let out = '';
  let last = 0;
  for (let k = segment.indexOf('\\'); k !== -1; k = segment.indexOf('\\', last)) {
    out += segment.slice(last, k);
    const code = segment.charCodeAt(k + 1);
    const simple = SIMPLE_BY_CODE[code];
    if (simple !== undefined) {
      out += simple;
      last = k + 2;
    } else if (code === 0x75 && HEX4.test(segment.slice(k + 2, k + 6))) {
      out += String.fromCharCode(parseInt(segment.slice(k + 2, k + 6), 16));
      last = k + 6;
    } else {
      out += '\\';
      last = k + 1;
    }
  }
  return last === 0 ? segment : out + segment.slice(last);
}

/** An escape cut short at the end of a chunk (a lone backslash, or a backslash-u with fewer than 4 digits): kept for the next chunk. */
function incompleteEscapeTail(segment: string): string {
  const from = Math.max(0, segment.length - 6);
  for (let k = segment.length - 1; k >= from; k--) {
    if (segment.charCodeAt(k) !== 0x5c) continue;
    let run = 0;
    for (let j = k; j >= 0 && segment.charCodeAt(j) === 0x5c; j--) run++;
    if (run % 2 === 0) return ''; // an escaped backslash: nothing pending
    const rest = segment.slice(k);
    return rest.length === 1 || (rest[1] === 'u' && rest.length < 6) ? rest : '';
  }
  return '';
}

export class JsonStream implements JsonPath {
  private readonly stack: Frame[] = [];
  private state: State = State.Value;
  private stringIsKey = false;
  private key = '';
  /** An escape cut by a chunk boundary: "\\", "\\u12", … */
  private pendingEscape = '';
  private nextId = 0;

  constructor(private readonly handler: JsonStreamHandler) {}

  get depth(): number {
    return this.stack.length;
  }

  segment(d: number): PathSegment {
    const f = this.stack[d];
    if (f === undefined) throw new RangeError(`no container at depth ${d} (depth ${this.stack.length})`);
    return f.object ? (f.key ?? '') : f.index;
  }

  containerId(): number {
    return this.stack.at(-1)?.id ?? -1;
  }

  /** The path as an array (a copy: for tests and small uses; scanners read `segment` in place). */
  path(): PathSegment[] {
    return this.stack.map((_f, d) => this.segment(d));
  }

  write(text: string): void {
    let i = 0;
    const n = text.length;
    while (i < n) {
      if (this.state === State.InString) {
        i = this.readString(text, i);
        continue;
      }
      const c = text.charCodeAt(i);
      // whitespace
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
        i++;
        continue;
      }
      switch (this.state) {
        case State.Value:
          i = this.startValue(text, i, c);
          break;
        case State.InLiteral:
          if (c === 0x2c || c === 0x7d || c === 0x5d) {
            this.state = State.AfterValue;
          } else {
            i++;
          }
          break;
        case State.AfterValue:
          i = this.afterValue(c, i);
          break;
        case State.Key:
          if (c === 0x22) {
            this.state = State.InString;
            this.stringIsKey = true;
            this.key = '';
            this.handler.strings.start('member-name');
            i++;
          } else if (c === 0x7d) {
            this.closeObject();
            i++;
          } else throw new JsonSyntaxError(`expected a key at character ${text[i]}`);
          break;
        case State.Colon:
          if (c !== 0x3a) throw new JsonSyntaxError('expected ":"');
          this.state = State.Value;
          i++;
          break;
        case State.Done:
          throw new JsonSyntaxError('text after the end of the JSON value');
        default:
          i++;
      }
    }
  }

  end(): void {
    if (this.state === State.InLiteral && this.stack.length === 0) this.state = State.Done;
    if (this.state !== State.Done) throw new JsonSyntaxError('the JSON text ends early');
  }

  private startValue(text: string, i: number, c: number): number {
    if (c === 0x22) {
      this.state = State.InString;
      this.stringIsKey = false;
      this.handler.strings.start('value');
      return i + 1;
    }
    if (c === 0x7b) {
      this.open(true);
      this.state = State.Key;
      return i + 1;
    }
    if (c === 0x5b) {
      this.open(false);
      this.state = State.Value;
      return i + 1;
    }
    if (c === 0x5d) {
      // an empty array
      const top = this.stack[this.stack.length - 1];
      if (top === undefined || top.object || top.index !== 0) throw new JsonSyntaxError('unexpected "]"');
      this.stack.pop();
      this.valueDone();
      return i + 1;
    }
    if (c === 0x2d || (c >= 0x30 && c <= 0x39) || c === 0x74 || c === 0x66 || c === 0x6e) {
      this.state = State.InLiteral;
      return i + 1;
    }
    throw new JsonSyntaxError(`unexpected character ${JSON.stringify(text[i])}`);
  }

  private open(object: boolean): void {
    if (this.stack.length >= MAX_JSON_DEPTH) throw new JsonDepthError(`nested deeper than ${MAX_JSON_DEPTH} levels`);
    this.stack.push({ object, key: undefined, index: 0, id: this.nextId++ });
  }

  private afterValue(c: number, i: number): number {
    const top = this.stack[this.stack.length - 1];
    if (c === 0x2c && top) {
      if (!top.object) {
        top.index++;
        this.state = State.Value;
      } else this.state = State.Key;
      return i + 1;
    }
    if (c === 0x7d && top?.object === true) {
      this.closeObject();
      return i + 1;
    }
    if (c === 0x5d && top?.object === false) {
      this.stack.pop();
      this.valueDone();
      return i + 1;
    }
    throw new JsonSyntaxError(`unexpected character ${JSON.stringify(String.fromCharCode(c))}`);
  }

  private closeObject(): void {
    const top = this.stack.pop();
    if (top !== undefined) this.handler.objectEnd?.(top.id);
    this.valueDone();
  }

  private valueDone(): void {
    this.state = this.stack.length === 0 ? State.Done : State.AfterValue;
  }

  /**
   * Reads string content from `i` to the closing quote or the end of the chunk; returns where it
   * stopped. The content of one chunk goes out as one decoded piece (a body full of `\"` escapes
   * must not become thousands of tiny pieces downstream); an escape cut by the chunk's end waits
   * for the next chunk.
   */
  private readString(chunk: string, from: number): number {
    // An escape left pending by the previous chunk is completed by this one: search both as one text,
    // and map the position back into the caller's chunk.
    let text = chunk;
    let i = from;
    let shift = 0;
    if (this.pendingEscape !== '') {
      text = this.pendingEscape + chunk.slice(from);
      shift = from - this.pendingEscape.length;
      i = 0;
      this.pendingEscape = '';
    }
    // The closing quote is the first one not escaped (preceded by an even run of backslashes).
    let q = text.indexOf('"', i);
    while (q !== -1) {
      let run = 0;
      for (let k = q - 1; k >= i && text.charCodeAt(k) === 0x5c; k--) run++;
      if (run % 2 === 0) break;
      q = text.indexOf('"', q + 1);
    }
    let segment = text.slice(i, q === -1 ? text.length : q);
    if (q === -1) {
      const tail = incompleteEscapeTail(segment);
      if (tail !== '') {
        this.pendingEscape = tail;
        segment = segment.slice(0, segment.length - tail.length);
      }
    }
    if (segment.length > 0) this.emit(segment.indexOf('\\') === -1 ? segment : decodeEscapes(segment));
    if (q === -1) return chunk.length;
    this.finishString();
    return q + 1 + shift;
  }

  private emit(piece: string): void {
    // A member name is searched whole like a value; only its first characters are kept for the path.
    if (this.stringIsKey && this.key.length < MAX_KEY_CHARS)
      this.key += piece.slice(0, MAX_KEY_CHARS - this.key.length);
    this.handler.strings.chunk(piece);
  }

  private finishString(): void {
    if (this.stringIsKey) {
      // The sink ends while the path still names the object the member belongs to.
      this.handler.strings.end();
      const top = this.stack[this.stack.length - 1];
      if (top?.object === true) top.key = this.key;
      this.state = State.Colon;
      return;
    }
    this.handler.strings.end();
    this.valueDone();
  }
}
