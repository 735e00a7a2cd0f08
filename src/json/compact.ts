// A huge answer, parsed into a value that is cheap to hold. A hostile target's 6 MB answer of two
// million `{}` parses with lossless-json into about 130 MB of objects that all live until the parse
// ends (so they reach the old generation, freed only by a full collection: the heap grew to 2 GB),
// while the same value with every repeated small container of scalars shared is about 8 MB (a
// pointer per item), and each fresh copy dies young. The value is the same JSON, item for item (a
// check still judges every element); only identity is shared, and no check mutates an answer or
// compares its items by identity.
//
// This parser handles the plain case only; on anything else (a syntax error, a duplicate member,
// `__proto__`, a control character in a string) it gives up and lossless-json parses the text, so
// the value and every error message are lossless-json's own.

import { parseJsonLossless, parseNumberToken, type JsonValue } from './lossless.js';

/** Containers with more members than this are not shared: their key would cost what they do. */
const SHARED_MAX_MEMBERS = 8;
/** Nor containers whose serialized form is longer than this. */
const SHARED_MAX_CHARS = 128;

class GiveUp extends Error {}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const PLAIN_STRING = /"[^"\\\u0000-\u001f]*"/y;
const ESCAPED_STRING = /"(?:[^"\\\u0000-\u001f]|\\.)*"/y;

type Plain = string | number | boolean | null;
// -0 is no plain scalar here: its JSON is "0", the key of 0's containers.
const isPlain = (v: JsonValue): v is Plain =>
  v === null || typeof v === 'string' || (typeof v === 'number' && !Object.is(v, -0)) || typeof v === 'boolean';

function compactParse(text: string): JsonValue {
  const shared = new Map<string, JsonValue>();
  let i = 0;
  const space = (): void => {
    for (let c = text.charCodeAt(i); c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d; c = text.charCodeAt(++i));
  };
  const token = (re: RegExp): string | undefined => {
    re.lastIndex = i;
    const m = re.exec(text);
    if (m === null) return undefined;
    i = re.lastIndex;
    return m[0];
  };
  // Every string through JSON.parse, a fresh copy: `slice` gives a view past 12 characters, which
  // keeps the whole 6-12 MB text alive as long as the string is kept (an error code kept in a
  // message: 8 whole texts pinned so in a heap snapshot of the 1e6 case).
  const string = (): string => {
    const quoted = token(PLAIN_STRING) ?? token(ESCAPED_STRING);
    if (quoted === undefined) throw new GiveUp();
    try {
      return JSON.parse(quoted) as string;
    } catch {
      throw new GiveUp();
    }
  };
  // The one instance of a small container of scalars, by its JSON; others as they are.
  const share = <T extends JsonValue>(container: T, members: readonly JsonValue[]): T => {
    if (members.length > SHARED_MAX_MEMBERS || !members.every(isPlain)) return container;
    const key = JSON.stringify(container);
    if (key.length > SHARED_MAX_CHARS) return container;
    const known = shared.get(key);
    if (known !== undefined) return known as T;
    shared.set(key, container);
    return container;
  };
  const value = (): JsonValue => {
    space();
    const c = text[i];
    let v: JsonValue;
    if (c === '"') v = string();
    else if (c === '{') {
      i++;
      const object: { [key: string]: JsonValue } = {};
      const members: JsonValue[] = [];
      space();
      if (text[i] === '}') i++;
      else
        for (;;) {
          space();
          if (text[i] !== '"') throw new GiveUp();
          const key = string();
          if (key === '__proto__' || Object.hasOwn(object, key)) throw new GiveUp();
          space();
          if (text[i++] !== ':') throw new GiveUp();
          const member = value();
          object[key] = member;
          members.push(member);
          const next = text[i++];
          if (next === '}') break;
          if (next !== ',') throw new GiveUp();
        }
      v = share(object, members);
    } else if (c === '[') {
      i++;
      const array: JsonValue[] = [];
      space();
      if (text[i] === ']') i++;
      else
        for (;;) {
          array.push(value());
          const next = text[i++];
          if (next === ']') break;
          if (next !== ',') throw new GiveUp();
        }
      v = share(array, array);
    } else if (text.startsWith('true', i)) ((v = true), (i += 4));
    else if (text.startsWith('false', i)) ((v = false), (i += 5));
    else if (text.startsWith('null', i)) ((v = null), (i += 4));
    else {
      const n = token(NUMBER);
      if (n === undefined) throw new GiveUp();
      v = parseNumberToken(n);
    }
    space();
    return v;
  };
  const result = value();
  if (i !== text.length) throw new GiveUp();
  return result;
}

/** parseJsonLossless's value (and errors) for `text`, with repeated small containers of scalars shared. */
export function parseJsonCompact(text: string): JsonValue {
  try {
    return compactParse(text);
  } catch (err) {
    // Too deep for the stack, or not plain: lossless-json decides, as for any answer.
    if (!(err instanceof GiveUp) && !(err instanceof RangeError)) throw err;
    return parseJsonLossless(text);
  } finally {
    // RegExp's legacy statics (RegExp.input) keep the last text matched: an empty one, not this.
    /^/.exec('');
  }
}
