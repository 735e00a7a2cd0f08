// A streaming JSON reader for files too big to JSON.parse whole (a 200 MB HAR): it keeps only the
// path to the current value and hands string values over in decoded pieces, so a 10 MB response
// body inside a HAR never sits in memory at once. Numbers, booleans and null are skipped.

export type PathSegment = string | number;

export interface JsonStringSink {
  /** A string value starts at `path` (the key of an object member, or an array index, last). */
  start(path: readonly PathSegment[]): void;
  /** Decoded text of the current string value. */
  chunk(text: string): void;
  end(): void;
}

export interface JsonStreamHandler {
  /** Receives every string value (not keys). */
  strings: JsonStringSink;
  /** An object at `path` closes (lets a handler settle what it learned about it). */
  objectEnd?(path: readonly PathSegment[]): void;
}

export class JsonSyntaxError extends Error {
  override name = 'JsonSyntaxError';
}

type Frame = { kind: 'object'; key: string | undefined } | { kind: 'array'; index: number };

const enum State {
  Value, // a value is expected
  AfterValue, // ',' or a closing bracket is expected
  Key, // a key string or '}' is expected
  Colon,
  InString,
  InLiteral, // number, true, false, null
  Done,
}

const SIMPLE_ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const KEY_LIMIT = 1024;
const STRING_SPECIAL = /["\\]/g;

export class JsonStream {
  private readonly stack: Frame[] = [];
  private state: State = State.Value;
  private stringIsKey = false;
  private key = '';
  /** An escape cut by a chunk boundary: "\\", "\\u12", … */
  private pendingEscape = '';

  constructor(private readonly handler: JsonStreamHandler) {}

  path(): PathSegment[] {
    const out: PathSegment[] = [];
    for (const f of this.stack) {
      if (f.kind === 'object') out.push(f.key ?? '');
      else out.push(f.index);
    }
    return out;
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
      this.handler.strings.start(this.path());
      return i + 1;
    }
    if (c === 0x7b) {
      this.stack.push({ kind: 'object', key: undefined });
      this.state = State.Key;
      return i + 1;
    }
    if (c === 0x5b) {
      this.stack.push({ kind: 'array', index: 0 });
      this.state = State.Value;
      return i + 1;
    }
    if (c === 0x5d) {
      // an empty array
      const top = this.stack[this.stack.length - 1];
      if (top?.kind !== 'array' || top.index !== 0) throw new JsonSyntaxError('unexpected "]"');
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

  private afterValue(c: number, i: number): number {
    const top = this.stack[this.stack.length - 1];
    if (c === 0x2c && top) {
      if (top.kind === 'array') {
        top.index++;
        this.state = State.Value;
      } else this.state = State.Key;
      return i + 1;
    }
    if (c === 0x7d && top?.kind === 'object') {
      this.closeObject();
      return i + 1;
    }
    if (c === 0x5d && top?.kind === 'array') {
      this.stack.pop();
      this.valueDone();
      return i + 1;
    }
    throw new JsonSyntaxError(`unexpected character ${JSON.stringify(String.fromCharCode(c))}`);
  }

  private closeObject(): void {
    this.handler.objectEnd?.(this.path().slice(0, -1));
    this.stack.pop();
    this.valueDone();
  }

  private valueDone(): void {
    this.state = this.stack.length === 0 ? State.Done : State.AfterValue;
  }

  /**
   * Reads string content from `i` to the closing quote or the end of the chunk; returns where it
   * stopped. The decoded pieces of one chunk go out as one piece: a body full of `\"` escapes
   * must not become thousands of tiny pieces downstream.
   */
  private readString(text: string, i: number): number {
    const parts: string[] = [];
    if (this.pendingEscape !== '') {
      const needed = this.pendingEscape.length >= 2 && this.pendingEscape[1] === 'u' ? 6 : 2;
      const take = Math.min(needed - this.pendingEscape.length, text.length - i);
      this.pendingEscape += text.slice(i, i + take);
      i += take;
      if (this.pendingEscape.length === 2 && this.pendingEscape[1] === 'u') return i; // now needs 6
      if (this.pendingEscape.length < needed) return i;
      parts.push(this.decodeEscape(this.pendingEscape));
      this.pendingEscape = '';
    }
    const re = STRING_SPECIAL;
    for (;;) {
      re.lastIndex = i;
      const m = re.exec(text);
      if (m === null) {
        parts.push(text.slice(i));
        this.emitParts(parts);
        return text.length;
      }
      const at = m.index;
      if (at > i) parts.push(text.slice(i, at));
      if (text.charCodeAt(at) === 0x22) {
        this.emitParts(parts);
        this.finishString();
        return at + 1;
      }
      // A backslash: decode the escape when it is whole in this chunk, else keep it pending.
      const kind = text[at + 1];
      const len = kind === 'u' ? 6 : 2;
      if (kind === undefined || at + len > text.length) {
        this.pendingEscape = text.slice(at);
        this.emitParts(parts);
        return text.length;
      }
      parts.push(this.decodeEscape(text.slice(at, at + len)));
      i = at + len;
    }
  }

  private emitParts(parts: string[]): void {
    if (parts.length === 0) return;
    this.emit(parts.length === 1 ? parts[0]! : parts.join(''));
  }

  private decodeEscape(esc: string): string {
    if (esc[1] === 'u') {
      const hex = esc.slice(2);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new JsonSyntaxError(`bad escape ${JSON.stringify(esc)}`);
      return String.fromCharCode(parseInt(hex, 16));
    }
    const out = SIMPLE_ESCAPES[esc[1]!];
    if (out === undefined) throw new JsonSyntaxError(`bad escape ${JSON.stringify(esc)}`);
    return out;
  }

  private emit(piece: string): void {
    if (this.stringIsKey) {
      if (this.key.length < KEY_LIMIT) this.key += piece.slice(0, KEY_LIMIT - this.key.length);
    } else this.handler.strings.chunk(piece);
  }

  private finishString(): void {
    if (this.stringIsKey) {
      const top = this.stack[this.stack.length - 1];
      if (top?.kind === 'object') top.key = this.key;
      this.state = State.Colon;
      return;
    }
    this.handler.strings.end();
    this.valueDone();
  }
}
