// The JSON media type in every form RFC 9110 makes equivalent, and the media-type parser it uses.

/**
 * `application/json; charset=utf-8` in any form RFC 9110 makes equivalent (§8.3.1, §5.6.6): type,
 * subtype and parameter names are case-insensitive, the charset value too; whitespace around `;` is
 * optional; a parameter value may be a quoted string (`charset="UTF-8"`). No other parameter.
 */
export function isJsonUtf8(contentType: string | undefined): boolean {
  const media = parseMediaType(contentType);
  if (!media || media.type !== 'application/json') return false;
  const names = Object.keys(media.params);
  return names.length === 1 && media.params.charset?.toLowerCase() === 'utf-8';
}

/** A media type as RFC 9110 §8.3.1 writes it; undefined when it does not parse. Names lower-cased. */
export function parseMediaType(text: string | undefined): { type: string; params: Record<string, string> } | undefined {
  if (text === undefined) return undefined;
  const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
  const head = new RegExp(`^[ \\t]*(${TOKEN})/(${TOKEN})[ \\t]*`).exec(text);
  if (!head) return undefined;
  const params: Record<string, string> = {};
  const param = new RegExp(`;[ \\t]*(?:(${TOKEN})=(?:(${TOKEN})|"((?:[^"\\\\]|\\\\.)*)"))?[ \\t]*`, 'y');
  param.lastIndex = head[0].length;
  while (param.lastIndex < text.length) {
    const m = param.exec(text);
    if (!m) return undefined;
    if (m[1] === undefined) continue; // an empty parameter (`;;`) is allowed by the grammar
    const name = m[1].toLowerCase();
    if (name in params) return undefined;
    params[name] = m[2] ?? m[3]!.replace(/\\(.)/g, '$1');
  }
  return { type: `${head[1]}/${head[2]}`.toLowerCase(), params };
}
