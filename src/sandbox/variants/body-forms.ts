// Text-level rewrites of a serialized JSON body, each producing JSON that parses to the same value (or,
// for the additive field, to the same value plus one field). Working on the text keeps every number
// token exactly as written (int64 ids, the cached run reads) and applies the same way to every body.
// The omissions of a serializer's rules are the one rewrite done on the parsed value.

import { isRecord, parseJson, stringifyJson, type Json, type JsonRecord } from '../json.js';

/** Newlines and two-space indentation; strings and number tokens are copied byte for byte. */
export function prettyJson(text: string): string {
  let out = '';
  let depth = 0;
  let inString = false;
  const newline = (): string => `\n${'  '.repeat(depth)}`;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charAt(i);
    if (inString) {
      out += ch;
      if (ch === '\\') out += text[++i] ?? '';
      else if (ch === '"') inString = false;
      continue;
    }
    switch (ch) {
      case '"':
        inString = true;
        out += ch;
        break;
      case '{':
      case '[': {
        const close = ch === '{' ? '}' : ']';
        // An empty object or array stays on one line.
        if (text[i + 1] === close) {
          out += ch + close;
          i++;
          break;
        }
        depth++;
        out += ch + newline();
        break;
      }
      case '}':
      case ']':
        depth--;
        out += newline() + ch;
        break;
      case ',':
        out += ch + newline();
        break;
      case ':':
        out += ': ';
        break;
      case ' ':
      case '\n':
      case '\r':
      case '\t':
        break;
      default:
        out += ch;
    }
  }
  return out;
}

/** Every character outside ASCII as a \uXXXX escape (astral characters as their surrogate pair). */
export function escapeNonAscii(text: string): string {
  return text.replace(/[^\u0000-\u007f]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const UTC_Z = /"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?)Z"/g;

/** `"2025-01-02T03:04:05.678Z"` → `"2025-01-02T03:04:05.678+00:00"`: the same instant, still UTC. */
export function offsetTimestamps(text: string): string {
  return text.replace(UTC_Z, '"$1+00:00"');
}

const UTC_Z_PARTS = /"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2}(?:\.\d+)?)Z"/g;

/** `"2025-01-02T03:04:05.678Z"` → `"20250102T030405.678Z"`: the same instant in the ISO 8601 basic format. */
export function basicTimestamps(text: string): string {
  return text.replace(UTC_Z_PARTS, '"$1$2$3T$4$5$6Z"');
}

/** Adds `"name": value` as the first member of a top-level object; anything else is left alone. */
export function addTopLevelField(text: string, name: string, valueJson: string): string {
  const at = text.search(/\S/);
  if (at < 0 || text[at] !== '{') return text;
  const rest = text.slice(at + 1);
  const empty = /^\s*}/.test(rest);
  return `${text.slice(0, at + 1)}${JSON.stringify(name)}:${valueJson}${empty ? '' : ','}${rest}`;
}

/**
 * The body with the members `drop` picks left out, at any depth (a serializer's omission rules). Parsed
 * and written again by the sandbox's own lossless JSON, so int64 ids and deliberate number tokens are
 * kept; a body that is not JSON is returned as it was.
 */
export function omitMembers(text: string, drop: (key: string, value: Json, parent: JsonRecord) => boolean): string {
  let value: Json;
  try {
    value = parseJson(text);
  } catch {
    return text;
  }
  const walk = (v: Json): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (isRecord(v))
      for (const key of Object.keys(v)) {
        if (drop(key, v[key]!, v)) delete v[key];
        else walk(v[key]!);
      }
  };
  walk(value);
  return stringifyJson(value);
}
