// A huge answer, parsed into a value that is cheap to hold. A hostile target's 6 MB answer of two
// million `{}` parses with lossless-json into about 130 MB of objects that all live until the parse
// ends (so they reach the old generation, freed only by a full collection: the heap grew to 2 GB),
// while the same value with every repeated small container shared (by its text) is about 8 MB (a
// pointer per item), and a container seen before is not even parsed again. The value is the same JSON, item for item (a
// check still judges every element); only identity is shared, and no check mutates an answer or
// compares its items by identity.
//
// This parser handles the plain case only; on anything else (a syntax error, a duplicate member,
// `__proto__`, a control character in a string) it gives up and lossless-json parses the text, so
// the value and every error message are lossless-json's own.

import { parseJsonLossless, parseNumberToken, type JsonValue } from './lossless.js';
import { NUMBER_TOKEN, skipSpace, tokenAt } from './scan.js';

/** Containers whose text is longer than this are not shared: their key would cost what they do. */
const SHARED_MAX_CHARS = 128;

class GiveUp extends Error {}

const PLAIN_STRING = /"[^"\\\u0000-\u001f]*"/y;
const ESCAPED_STRING = /"(?:[^"\\\u0000-\u001f]|\\.)*"/y;

/** One parse of one text: `i` is where it reads. */
class CompactParser {
  private i = 0;
  private readonly shared = new Map<string, JsonValue>();
  // The last container found by `seen`, tried first without a slice: a run of equal items costs a comparison each.
  private lastText = '';
  private lastValue: JsonValue = null;

  constructor(private readonly text: string) {}

  parse(): JsonValue {
    const result = this.value();
    if (this.i !== this.text.length) throw new GiveUp();
    return result;
  }

  private space(): void {
    this.i = skipSpace(this.text, this.i);
  }

  private token(re: RegExp): string | undefined {
    const m = tokenAt(re, this.text, this.i);
    if (m !== undefined) this.i += m.length;
    return m;
  }

  // Every string through JSON.parse, a fresh copy: `slice` gives a view past 12 characters, which
  // keeps the whole 6-12 MB text alive as long as the string is kept (an error code kept in a
  // message: 8 whole texts pinned so in a heap snapshot of the 1e6 case).
  private string(): string {
    const quoted = this.token(PLAIN_STRING) ?? this.token(ESCAPED_STRING);
    if (quoted === undefined) throw new GiveUp();
    try {
      return JSON.parse(quoted) as string;
    } catch {
      throw new GiveUp();
    }
  }

  // The one instance of a small container, by its text: the same text parses to the same value. No
  // serializing to find the key (JSON.stringify of two million `{}` was half of a run's CPU).
  private share<T extends JsonValue>(container: T, start: number): T {
    if (this.i - start > SHARED_MAX_CHARS) return container;
    const key = this.text.slice(start, this.i);
    const known = this.shared.get(key);
    if (known !== undefined) return known as T;
    this.shared.set(key, container);
    return container;
  }

  // A container already seen, found without parsing it again: if the text up to the first closing
  // bracket is a container parsed before, the container starting here is that one (a valid JSON
  // text is never a proper prefix of another), whatever its strings hold.
  private seen(close: '}' | ']'): JsonValue | undefined {
    const { text, i } = this;
    if (this.lastText !== '' && text.startsWith(this.lastText, i)) {
      this.i += this.lastText.length;
      return this.lastValue;
    }
    const end = text.indexOf(close, i);
    if (end === -1 || end + 1 - i > SHARED_MAX_CHARS) return undefined;
    const key = text.slice(i, end + 1);
    const known = this.shared.get(key);
    if (known !== undefined) {
      this.i = end + 1;
      this.lastText = key;
      this.lastValue = known;
    }
    return known;
  }

  private object(start: number): JsonValue {
    const { text } = this;
    this.i++;
    const object: { [key: string]: JsonValue } = {};
    this.space();
    if (text[this.i] === '}') this.i++;
    else
      for (;;) {
        this.space();
        if (text[this.i] !== '"') throw new GiveUp();
        const key = this.string();
        if (key === '__proto__' || Object.hasOwn(object, key)) throw new GiveUp();
        this.space();
        if (text[this.i++] !== ':') throw new GiveUp();
        const member = this.value();
        object[key] = member;
        const next = text[this.i++];
        if (next === '}') break;
        if (next !== ',') throw new GiveUp();
      }
    return this.share(object, start);
  }

  private array(start: number): JsonValue {
    const { text } = this;
    this.i++;
    const array: JsonValue[] = [];
    this.space();
    if (text[this.i] === ']') this.i++;
    else
      for (;;) {
        array.push(this.value());
        const next = text[this.i++];
        if (next === ']') break;
        if (next !== ',') throw new GiveUp();
      }
    return this.share(array, start);
  }

  private value(): JsonValue {
    this.space();
    const { text } = this;
    const c = text[this.i];
    const start = this.i;
    const known = c === '{' ? this.seen('}') : c === '[' ? this.seen(']') : undefined;
    let v: JsonValue;
    if (known !== undefined) v = known;
    else if (c === '"') v = this.string();
    else if (c === '{') v = this.object(start);
    else if (c === '[') v = this.array(start);
    else if (text.startsWith('true', this.i)) ((v = true), (this.i += 4));
    else if (text.startsWith('false', this.i)) ((v = false), (this.i += 5));
    else if (text.startsWith('null', this.i)) ((v = null), (this.i += 4));
    else {
      const n = this.token(NUMBER_TOKEN);
      if (n === undefined) throw new GiveUp();
      v = parseNumberToken(n);
    }
    this.space();
    return v;
  }
}

function compactParse(text: string): JsonValue {
  return new CompactParser(text).parse();
}

/** parseJsonLossless's value (and errors) for `text`, with repeated small containers shared. */
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
