// A small YAML emitter for JSON data (objects, arrays, strings, finite numbers, booleans, null), so the
// command needs no YAML library at run time. Block style throughout; a string is written plain only when
// it is unmistakably a string to every YAML 1.1 and 1.2 parser (a conservative pattern, no reserved
// word, no number), otherwise as a JSON string, which is a valid YAML double-quoted scalar. The output
// depends only on the value and its key order, so it is deterministic.

const PLAIN = /^[A-Za-z_][A-Za-z0-9_./-]*$/;
/** Words some YAML parser reads as a boolean or null (YAML 1.1 included). */
const RESERVED = /^(?:y|n|yes|no|on|off|true|false|null)$/i;

function scalar(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`YAML: ${value} is no JSON number`);
    return String(value);
  }
  if (typeof value === 'string') return PLAIN.test(value) && !RESERVED.test(value) ? value : JSON.stringify(value);
  if (Array.isArray(value) && value.length === 0) return '[]';
  if (isPlainObject(value) && Object.keys(value).length === 0) return '{}';
  throw new Error(`YAML: ${typeof value} is no JSON value`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A non-empty array or object: written as an indented block, not inline. */
function isBlock(value: unknown): value is unknown[] | Record<string, unknown> {
  return Array.isArray(value) ? value.length > 0 : isPlainObject(value) && Object.keys(value).length > 0;
}

function block(value: unknown[] | Record<string, unknown>, indent: string): string[] {
  const lines: string[] = [];
  if (Array.isArray(value)) {
    for (const item of value) {
      if (!isBlock(item)) {
        lines.push(`${indent}- ${scalar(item)}`);
        continue;
      }
      // The item's block is indented two more; its first line moves up beside the dash.
      const inner = block(item, `${indent}  `);
      lines.push(`${indent}- ${inner[0]!.slice(indent.length + 2)}`, ...inner.slice(1));
    }
    return lines;
  }
  for (const [key, item] of Object.entries(value)) {
    if (isBlock(item)) lines.push(`${indent}${scalar(key)}:`, ...block(item, `${indent}  `));
    else lines.push(`${indent}${scalar(key)}: ${scalar(item)}`);
  }
  return lines;
}

/** `value` as a YAML document ending in a newline. */
export function toYaml(value: unknown): string {
  return `${isBlock(value) ? block(value, '').join('\n') : scalar(value)}\n`;
}
