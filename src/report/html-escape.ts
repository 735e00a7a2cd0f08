// Everything in report.html that came from a run is text, never markup: a hostile target's body must
// not open a tag, close a <pre>, or start a script.

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch] ?? ch).replace(/[\uD800-\uDFFF]/gu, '\uFFFD');
}
