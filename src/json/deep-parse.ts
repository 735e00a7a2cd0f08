// JSON nested deeper than the call stack: lossless-json (and the compact parser) recurse once per
// level and throw "Maximum call stack size exceeded" somewhere past 5,000 levels, which would call a
// valid answer "not JSON". This parser keeps its own stack, so a valid text nested 20,000 levels is the
// same lossless value (integers past 2^53 as bigint, fractions as JsonDecimal, a duplicate member
// refused unless its values are equal), and a text nested past `maxDepth` is said to be too deep to
// judge, not to be something it may not be. Used only where the recursive parsers ran out of stack.

import { boundedJson } from './bounded-json.js';
import { JsonDecimal, parseNumberToken, type JsonValue } from './lossless.js';
import { NUMBER_TOKEN, skipSpace, tokenAt } from './scan.js';

/** Nesting this parser follows; past it, the text is too deep to judge (each level costs a container). */
const MAX_JUDGED_JSON_DEPTH = 100_000;

/** The words every report uses for a body nested past what the certifier judges. */
export const TOO_DEEP_TO_JUDGE = 'too deep to judge';

/** A text nested past the depth this parser follows: it may be valid JSON, and nothing says it is not. */
export class JsonTooDeep extends Error {
  override readonly name = 'JsonTooDeep';
  constructor(readonly depth: number) {
    super(
      `${TOO_DEEP_TO_JUDGE}: nested more than ${depth.toLocaleString('en')} levels, past what the certifier parses`,
    );
  }
}

const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const LITERAL = /true|false|null/y;

type Frame = { array: JsonValue[] } | { object: Record<string, JsonValue>; key: string; keyAt: number };

/** The JSON text of a value, for comparing two values of one member name (no recursion). */
function textOf(value: JsonValue): string {
  return (
    boundedJson(value, {
      maxDepth: Number.MAX_SAFE_INTEGER,
      leaf: (v) => (v instanceof JsonDecimal ? v.raw : typeof v === 'bigint' ? v.toString() : undefined),
    }) ?? ''
  );
}

type ObjectFrame = Extract<Frame, { object: unknown }>;

/** One parse of one text with its own stack of open containers: `i` is where it reads. */
class DeepParser {
  private i = 0;
  private readonly stack: Frame[] = [];

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
  ) {}

  parse(): JsonValue {
    for (;;) {
      this.space();
      // A value starts here; undefined when it opened a container still to fill.
      const value = this.text[this.i] === '[' || this.text[this.i] === '{' ? this.open() : this.scalar();
      if (value === undefined) continue;
      const done = this.closeAfter(value);
      if (done !== undefined) return done;
    }
  }

  private fail(what: string): never {
    throw new SyntaxError(`${what} at position ${this.i}`);
  }

  private space(): void {
    this.i = skipSpace(this.text, this.i);
  }

  private token(re: RegExp): string | undefined {
    const m = tokenAt(re, this.text, this.i);
    if (m !== undefined) this.i += m.length;
    return m;
  }

  /** A container: empty, it is the value; otherwise it is pushed, to be filled. */
  private open(): JsonValue | undefined {
    const { text } = this;
    const c = text[this.i];
    if (this.stack.length >= this.maxDepth) throw new JsonTooDeep(this.maxDepth);
    this.i++;
    this.space();
    if (c === '[') {
      const array: JsonValue[] = [];
      if (text[this.i] !== ']') {
        this.stack.push({ array });
        return undefined;
      }
      this.i++;
      return array;
    }
    const object: Record<string, JsonValue> = {};
    if (text[this.i] !== '}') {
      const frame = { object, key: '', keyAt: this.i };
      this.stack.push(frame);
      this.memberKey(frame);
      return undefined;
    }
    this.i++;
    return object;
  }

  /** A string, literal or number. */
  private scalar(): JsonValue {
    const c = this.text[this.i];
    if (c === '"') {
      const quoted = this.token(STRING);
      if (quoted === undefined) this.fail('Invalid string');
      return JSON.parse(quoted) as string;
    }
    const literal = this.token(LITERAL);
    if (literal !== undefined) return literal === 'null' ? null : literal === 'true';
    const number = this.token(NUMBER_TOKEN);
    if (number === undefined)
      this.fail(this.i >= this.text.length ? 'Unexpected end of json string' : `Unexpected character '${c}'`);
    return parseNumberToken(number);
  }

  /** Where a value just parsed goes: into the innermost container, or it is the whole text's. */
  private place(value: JsonValue): JsonValue | undefined {
    const top = this.stack.at(-1);
    if (!top) return value;
    if ('array' in top) top.array.push(value);
    else if (Object.prototype.hasOwnProperty.call(top.object, top.key)) {
      const known = top.object[top.key] as JsonValue;
      if (known !== value && textOf(known) !== textOf(value)) {
        this.i = top.keyAt;
        this.fail(`Duplicate key '${top.key}' encountered`);
      }
    } else {
      Object.defineProperty(top.object, top.key, { value, enumerable: true, writable: true, configurable: true });
    }
    return undefined;
  }

  /** After a value inside a container: `,` and the next member or item, or the container's end. */
  private memberKey(frame: ObjectFrame): void {
    this.space();
    frame.keyAt = this.i + 1;
    const quoted = this.token(STRING);
    if (quoted === undefined) this.fail('Object key expected');
    frame.key = JSON.parse(quoted) as string;
    this.space();
    if (this.text[this.i] !== ':') this.fail("Colon ':' expected");
    this.i++;
  }

  /** Places the value and closes every container it ends; the whole text's value once the last closes. */
  private closeAfter(value: JsonValue): JsonValue | undefined {
    const { text } = this;
    let done = this.place(value);
    for (;;) {
      if (done !== undefined) {
        this.space();
        if (this.i < text.length) this.fail(`Expected end of input but got '${text[this.i]}'`);
        return done;
      }
      this.space();
      const top = this.stack.at(-1) as Frame;
      const close = 'array' in top ? ']' : '}';
      if (text[this.i] === ',') {
        this.i++;
        if (!('array' in top)) this.memberKey(top);
        return undefined;
      }
      if (text[this.i] !== close) this.fail(`'${close}' or ',' expected`);
      this.i++;
      this.stack.pop();
      done = this.place('array' in top ? top.array : top.object);
    }
  }
}

export function parseJsonDeep(text: string, maxDepth: number = MAX_JUDGED_JSON_DEPTH): JsonValue {
  return new DeepParser(text, maxDepth).parse();
}
