// JSON text of any value without recursion: a target's answer nested 4,500 levels deep is evidence to
// show, not a stack to exhaust (JSON.stringify throws a RangeError past a few thousand levels, and a
// check that shows what it received would end `error` instead of `failed`). Containers deeper than
// `maxDepth` are written as a marker, and the text stops at `maxChars` with one.

export interface BoundedJsonOptions {
  /** Containers nested deeper are written `[…]` / `{…}`. */
  maxDepth?: number;
  /** The text is cut past this many characters, ending in `…`. */
  maxChars?: number;
  /** The JSON text of a value JSON cannot write itself (bigint, exact decimals), or undefined. */
  leaf?: (value: unknown) => string | undefined;
}

const DEEP_MARKER_ARRAY = '[…]';
const DEEP_MARKER_OBJECT = '{…}';

type Work = { literal: string } | { value: unknown; depth: number; inArray: boolean };

function isWritable(v: unknown): boolean {
  return v !== undefined && typeof v !== 'function' && typeof v !== 'symbol';
}

export function boundedJson(root: unknown, opts: BoundedJsonOptions = {}): string | undefined {
  const maxDepth = opts.maxDepth ?? 256;
  const maxChars = opts.maxChars ?? Number.MAX_SAFE_INTEGER;
  if (!isWritable(root) && opts.leaf?.(root) === undefined) return undefined;
  let out = '';
  const work: Work[] = [{ value: root, depth: 0, inArray: false }];
  while (work.length > 0) {
    if (out.length > maxChars) return `${out.slice(0, maxChars)}…`;
    const item = work.pop();
    if (!item) break;
    if ('literal' in item) {
      out += item.literal;
      continue;
    }
    const { value, depth, inArray } = item;
    const custom = opts.leaf?.(value);
    if (custom !== undefined) {
      out += custom;
      continue;
    }
    if (value === null || typeof value === 'boolean') out += String(value);
    else if (typeof value === 'number') out += Number.isFinite(value) ? String(value) : 'null';
    else if (typeof value === 'string') out += JSON.stringify(value);
    else if (typeof value === 'bigint') out += value.toString();
    else if (!isWritable(value)) out += inArray ? 'null' : '';
    else if (typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
      out += JSON.stringify(value) ?? 'null';
    } else if (Array.isArray(value)) {
      if (depth >= maxDepth) {
        out += DEEP_MARKER_ARRAY;
        continue;
      }
      out += '[';
      work.push({ literal: ']' });
      for (let i = value.length - 1; i >= 0; i--) {
        work.push({ value: value[i], depth: depth + 1, inArray: true });
        if (i > 0) work.push({ literal: ',' });
      }
    } else if (typeof value === 'object') {
      if (depth >= maxDepth) {
        out += DEEP_MARKER_OBJECT;
        continue;
      }
      const entries = Object.entries(value).filter(([, v]) => isWritable(v) || opts.leaf?.(v) !== undefined);
      out += '{';
      work.push({ literal: '}' });
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, v] = entries[i] ?? ['', null];
        work.push({ value: v, depth: depth + 1, inArray: false });
        work.push({ literal: `${JSON.stringify(k)}:` });
        if (i > 0) work.push({ literal: ',' });
      }
    }
  }
  return out.length > maxChars ? `${out.slice(0, maxChars)}…` : out;
}
