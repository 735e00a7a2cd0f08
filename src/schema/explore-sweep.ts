// The fixed sweep the exploration sends before its random cases: every request field gets each
// mismatch kind (a wrong JSON type, null, an integer out of its range) and each unusual valid kind
// (text outside the BMP, a boundary length, a boundary integer) once, so that a defect tied to one
// field is found every time, not when the draw happens to land on it. The values are fixed, not drawn:
// the sweep is the same for every seed.

import type { JsonValue } from '../json/lossless.js';
import { leaves, type ExploreShape, type Leaf, type Mutation } from './explore-cases.js';
import type { RequestField } from './request-fields.js';

/** Text outside the BMP: an emoji, a ZWJ sequence and a CJK extension character (ordinary UTF-8). */
export const ASTRAL_TEXT = 'Noa 😀 🧑🏽‍💻 𠜎';

/** The one wrong JSON type each field kind gets: a number written as a string where an integer is due. */
function wrongTypeValue(f: RequestField): JsonValue {
  switch (f.kind) {
    case 'integer':
    case 'int64': {
      const lo = f.minimum ?? 0;
      const hi = f.maximum ?? lo + 10;
      return String(Math.min(hi, Math.max(lo, 5)));
    }
    case 'boolean':
    case 'string-array':
    case 'object-array':
      return 'explore';
    case 'string':
    case 'nullable-string':
    case 'enum':
      return 12345;
  }
}

const nullMismatches = (f: RequestField): boolean =>
  f.kind === 'enum' ? !(f.values ?? []).includes(null) : f.kind !== 'nullable-string';

const isInteger = (f: RequestField): boolean => f.kind === 'integer' || f.kind === 'int64';

/** Each field's wrong type, null where the field is not nullable, and each side of a stated integer range. */
export function mismatchSweep(shape: ExploreShape): Mutation[] {
  const keep = new Set(shape.keep ?? []);
  const out: Mutation[] = [];
  const whole = keep.size === 0;
  const fields = leaves(shape).filter((l) => !keep.has(l.pattern));
  // Breadth first, so that a share ending part-way (the default at the spec's 120 a minute) has still
  // tried the body parser and every field: an array for the whole body (one case that reaches the
  // parser of every field), each field's wrong type, the rest of the whole-body shapes (a string, the
  // object one level down), each null, each side of each stated range.
  if (whole) out.push({ kind: 'sweep:array-body', op: 'array-body', wrapped: true });
  for (const l of fields) {
    const kind = isInteger(l.field) ? 'sweep:number-as-string' : 'sweep:wrong-type';
    out.push({ kind, op: 'set', path: l.path, value: wrongTypeValue(l.field) });
  }
  if (whole) {
    out.push({ kind: 'sweep:string-body', op: 'string-body', encoded: true });
    if (shape.requiredStated.some((p) => !p.includes('/')))
      out.push({ kind: 'sweep:extra-nesting', op: 'nested', key: 'data' });
  }
  for (const l of fields)
    if (nullMismatches(l.field)) out.push({ kind: 'sweep:null', op: 'set', path: l.path, value: null });
  for (const { field: f, path } of fields) {
    if (isInteger(f) && f.minimum !== undefined)
      out.push({ kind: 'sweep:out-of-range', op: 'set', path, value: f.minimum - 1 });
    if (isInteger(f) && f.maximum !== undefined)
      out.push({ kind: 'sweep:out-of-range', op: 'set', path, value: f.maximum + 1 });
  }
  return out;
}

const isText = (shape: ExploreShape, l: Leaf): boolean => (shape.text ?? []).includes(l.pattern);
const isId = (shape: ExploreShape, l: Leaf): boolean => (shape.ids ?? []).includes(l.pattern);

/**
 * Each text field with text outside the BMP and at a boundary length (its stated maximum, or a single
 * character where the spec states none); each identifier with that text appended (it stays unique);
 * each stated integer bound. `textOnly`: the text cases alone (answered 2xx by a conformant service).
 */
export function unusualSweep(shape: ExploreShape, opts: { textOnly?: boolean } = {}): Mutation[] {
  const out: Mutation[] = [];
  for (const l of leaves(shape)) {
    const f = l.field;
    if (isText(shape, l)) {
      out.push({ kind: 'sweep:outside-bmp', op: 'set', path: l.path, value: ASTRAL_TEXT });
      out.push({ kind: 'sweep:boundary-length', op: 'set', path: l.path, value: boundaryText(f) });
    } else if (isId(shape, l) && !opts.textOnly) {
      out.push({ kind: 'sweep:outside-bmp', op: 'suffix', path: l.path, text: ` ${ASTRAL_TEXT}` });
    } else if (f.kind === 'integer' && !opts.textOnly) {
      for (const value of [f.minimum, f.maximum])
        if (value !== undefined) out.push({ kind: 'sweep:boundary-integer', op: 'set', path: l.path, value });
    }
  }
  return out;
}

/** The stated maximum length exactly, in plain letters (no reading of "characters" counts them apart). */
function boundaryText(f: RequestField): string {
  if (f.maxLength === undefined) return 'A';
  return 'Data analyst SQL '.repeat(Math.ceil(f.maxLength / 17)).slice(0, f.maxLength - 1) + 'Z';
}
