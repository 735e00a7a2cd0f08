// Everything in report.html that came from a run is text, never markup: a hostile target's body must
// not open a tag, close a <pre>, or start a script; nor reorder a line with a bidirectional control,
// or carry a raw ESC or NUL (terminal-safe.ts shows them as visible escapes).

import { documentSafe } from './terminal-safe.js';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return documentSafe(text)
    .replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch] ?? ch)
    .replace(/[\uD800-\uDFFF]/gu, '\uFFFD');
}
