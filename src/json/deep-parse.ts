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

export function parseJsonDeep(text: string, maxDepth: number = MAX_JUDGED_JSON_DEPTH): JsonValue {
  let i = 0;
  const fail = (what: string): never => {
    throw new SyntaxError(`${what} at position ${i}`);
  };
  const space = (): void => {
    i = skipSpace(text, i);
  };
  const token = (re: RegExp): string | undefined => {
    const m = tokenAt(re, text, i);
    if (m !== undefined) i += m.length;
    return m;
  };
  const stack: Frame[] = [];
  /** Where a value just parsed goes: into the innermost container, or it is the whole text's. */
  const place = (value: JsonValue): JsonValue | undefined => {
    const top = stack.at(-1);
    if (!top) return value;
    if ('array' in top) top.array.push(value);
    else if (Object.prototype.hasOwnProperty.call(top.object, top.key)) {
      const known = top.object[top.key] as JsonValue;
      if (known !== value && textOf(known) !== textOf(value)) {
        i = top.keyAt;
        fail(`Duplicate key '${top.key}' encountered`);
      }
    } else {
      Object.defineProperty(top.object, top.key, { value, enumerable: true, writable: true, configurable: true });
    }
    return undefined;
  };
  /** After a value inside a container: `,` and the next member or item, or the container's end. */
  const memberKey = (frame: Extract<Frame, { object: unknown }>): void => {
    space();
    frame.keyAt = i + 1;
    const quoted = token(STRING);
    if (quoted === undefined) fail('Object key expected');
    frame.key = JSON.parse(quoted as string) as string;
    space();
    if (text[i] !== ':') fail("Colon ':' expected");
    i++;
  };
  for (;;) {
    space();
    // A value starts here.
    let value: JsonValue | undefined;
    const c = text[i];
    if (c === '[' || c === '{') {
      if (stack.length >= maxDepth) throw new JsonTooDeep(maxDepth);
      i++;
      space();
      if (c === '[') {
        const array: JsonValue[] = [];
        if (text[i] === ']') {
          i++;
          value = array;
        } else {
          stack.push({ array });
          continue;
        }
      } else {
        const object: Record<string, JsonValue> = {};
        if (text[i] === '}') {
          i++;
          value = object;
        } else {
          const frame = { object, key: '', keyAt: i };
          stack.push(frame);
          memberKey(frame);
          continue;
        }
      }
    } else if (c === '"') {
      const quoted = token(STRING);
      if (quoted === undefined) fail('Invalid string');
      value = JSON.parse(quoted as string) as string;
    } else {
      const literal = token(LITERAL);
      if (literal !== undefined) value = literal === 'null' ? null : literal === 'true';
      else {
        const number = token(NUMBER_TOKEN);
        if (number === undefined)
          fail(i >= text.length ? 'Unexpected end of json string' : `Unexpected character '${c}'`);
        value = parseNumberToken(number as string);
      }
    }
    // Close every container this value ends, then go on after a comma.
    let done = place(value as JsonValue);
    for (;;) {
      if (done !== undefined) {
        space();
        if (i < text.length) fail(`Expected end of input but got '${text[i]}'`);
        return done;
      }
      space();
      const top = stack.at(-1) as Frame;
      const close = 'array' in top ? ']' : '}';
      if (text[i] === ',') {
        i++;
        if (!('array' in top)) memberKey(top);
        break;
      }
      if (text[i] !== close) fail(`'${close}' or ',' expected`);
      i++;
      stack.pop();
      done = place('array' in top ? top.array : top.object);
    }
  }
}
