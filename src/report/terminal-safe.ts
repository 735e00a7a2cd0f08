// A hostile target controls response bodies, and a scanned folder its file names: escape sequences
// from them must not drive the terminal (or a terminal that shows summary.md). C0 controls (but tab and
// newline), DEL and C1 controls become visible \x.. escapes. A leaf with no imports: the CLI's stderr
// lines use it before any command's modules are loaded.

const TERMINAL_CONTROLS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

export function terminalSafe(text: string): string {
  return text.replace(TERMINAL_CONTROLS, (ch) => `\\x${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}
