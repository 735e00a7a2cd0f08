// The lexical pieces both hand-written parsers read JSON text with (compact.ts for huge answers,
// deep-parse.ts for deep ones): a number token, whitespace, and a token matched where the parser is.

/** A JSON number token (RFC 8259 §6), matched where `lastIndex` says (sticky). */
export const NUMBER_TOKEN = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

/** The position after the JSON whitespace (space, tab, line feed, carriage return) that starts at `i`. */
export function skipSpace(text: string, i: number): number {
  let at = i;
  for (let c = text.charCodeAt(at); c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d; c = text.charCodeAt(++at));
  return at;
}

/** The text the sticky `re` matches exactly at `i`, or undefined. */
export function tokenAt(re: RegExp, text: string, i: number): string | undefined {
  re.lastIndex = i;
  return re.exec(text)?.[0];
}
