// A hostile target controls response bodies, and a scanned folder its file names: escape sequences
// from them must not drive the terminal (or a terminal that shows summary.md), and bidirectional
// controls must not reorder what a report shows (U+202E in a check id makes "passed )failed(" read
// as "passed (failed)"). C0 controls (but tab and newline), DEL and C1 controls become visible \x..
// escapes; the bidirectional embeddings, overrides, isolates and marks (U+202A–U+202E, U+2066–U+2069,
// U+200E, U+200F, U+061C) visible \u.... escapes. Every report and the console show text through
// here (html-escape.ts, xml-text.ts, sarif.ts, markdown.ts, console-format.ts); results.json keeps
// the characters, JSON-escaped (json.ts). A leaf with no imports: the CLI's stderr lines use it
// before any command's modules are loaded.

const UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/** The characters terminalSafe escapes, without tab and line feed: what JSON text escapes too. */
const DISPLAY_UNSAFE = /[\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

function escapeOf(ch: string): string {
  const code = ch.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).toUpperCase().padStart(2, '0')}`
    : `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, escapeOf);
}

const UNSAFE_IN_DOCUMENTS =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/** terminalSafe for a document (report.html, junit.xml): a carriage return there overwrites nothing, and stays. */
export function documentSafe(text: string): string {
  return text.replace(UNSAFE_IN_DOCUMENTS, escapeOf);
}

/**
 * JSON text with every bidirectional control and C1 control inside its strings written as a `\u`
 * escape: the same value for a parser, and an editor or `cat` shows the escape, not a reordered line.
 * (JSON.stringify already escapes C0 controls.) Outside strings JSON text holds none of them.
 */
export function jsonDisplaySafe(json: string): string {
  return json.replace(DISPLAY_UNSAFE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
