// The deep copy behind Redactor.value: every string of a value (and every key) through `text`, other
// values kept as they are.

/** Containers nested deeper than this are cut by Redactor.value (no report nests a tenth as deep). */
export const MAX_VALUE_DEPTH = 256;
export const DEEP_VALUE_MARKER = `[… nested deeper than ${MAX_VALUE_DEPTH} levels: cut]`;

function isPlainContainer(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

type Container = unknown[] | Record<string, unknown>;

/**
 * Iterative, so no nesting can exhaust the stack: each container is copied empty when met and filled
 * when taken off the work list. Containers deeper than MAX_VALUE_DEPTH become DEEP_VALUE_MARKER, so
 * what comes out (a results.json given to `report`, nested 100,000 levels) is safe for everything
 * downstream that recurses (JSON.stringify in the reporters throws past a few thousand levels).
 */
export function redactValue<T>(v: T, text: (s: string) => string): T {
  type Job = { from: Container; to: Container; depth: number };
  const pending: Job[] = [];
  const copy = (item: unknown, depth: number): unknown => {
    if (typeof item === 'string') return text(item);
    const list = Array.isArray(item);
    if (!list && !isPlainContainer(item)) return item;
    if (depth >= MAX_VALUE_DEPTH) return DEEP_VALUE_MARKER;
    const to: Container = list ? [] : {};
    pending.push({ from: item as Container, to, depth });
    return to;
  };
  const out = copy(v, 0);
  for (let job = pending.pop(); job; job = pending.pop()) {
    const { from, to, depth } = job;
    if (Array.isArray(from)) {
      const list = to as unknown[];
      for (let i = 0; i < from.length; i++) list.push(copy(from[i], depth + 1));
    } else {
      const record = to as Record<string, unknown>;
      for (const [k, item] of Object.entries(from)) {
        // An own "__proto__" key (JSON.parse makes one) stays a key, never the copy's prototype.
        Object.defineProperty(record, text(k), {
          value: copy(item, depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
    }
  }
  return out as T;
}
