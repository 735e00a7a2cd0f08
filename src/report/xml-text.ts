// XML 1.0 can carry only some code points; a hostile target controls the bodies we embed, so every
// string goes through here before it reaches junit.xml: controls and bidirectional controls shown as
// visible escapes (terminal-safe.ts: a CI page showing the XML must not be reordered or driven), then
// what XML cannot carry at all (lone surrogates, U+FFFE, U+FFFF) removed.

import { documentSafe } from './terminal-safe.js';

// Allowed: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]. The `u` flag makes
// a well-formed surrogate pair one code point, so only lone surrogates match the middle range.
const ILLEGAL_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/gu;

export function stripXmlIllegal(text: string): string {
  return documentSafe(text).replace(ILLEGAL_XML, '');
}

export function escapeXmlAttr(text: string): string {
  return (
    stripXmlIllegal(text)
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      // Attribute-value normalization would turn raw tabs and newlines into spaces: keep them as references.
      .replace(/\t/g, '&#9;')
      .replace(/\n/g, '&#10;')
      .replace(/\r/g, '&#13;')
  );
}

/** Text content as CDATA; `]]>` inside is split across two sections so it cannot close the first. */
export function cdata(text: string): string {
  return `<![CDATA[${stripXmlIllegal(text).replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;
}
