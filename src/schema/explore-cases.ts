// Requests generated from the request schemas (src/schema/request-fields.ts) with fast-check: bodies
// that violate the schema (a wrong type in each field, fractional and out-of-range integers, integers
// past 2^31 and 2^63, numbers written as strings, required fields missing, an array or a string as the
// whole body, extra nesting) and valid bodies with unusual values (text outside the BMP, combining
// marks, right-to-left text, control characters, long text, boundary integers, empty arrays).
//
// A case is a Mutation of a valid base body, kept as data so that it can be shown, replayed and
// shrunk. Cases are drawn class by class in turn (each class its own seeded stream), so that a budget
// of a few dozen requests still tries every class at least once, whatever the seed.
//
// What is a mismatch follows the schema's types and ranges only: a `format` (date-time, e-mail, uuid)
// is an annotation unless the spec says otherwise, so no format violation is ever called a mismatch.

import fc from 'fast-check';
import { JsonDecimal, isJsonObject, stringifyJsonLossless, type JsonObject, type JsonValue } from '../json/lossless.js';
import type { FieldKind, RequestField } from './request-fields.js';

type Path = ReadonlyArray<string | number>;

/**
 * Why the spec leaves a generated value's handling open (control characters in text, a length it bounds
 * nowhere, an id beyond any listed candidate, a field it does not name); absent for an ordinary value,
 * whose 5xx is a failure ("JSON (UTF-8)": any UTF-8 text is ordinary).
 */
interface Openness {
  open?: string;
}

export type Mutation = Openness &
  (
    | { kind: string; op: 'none' }
    | { kind: string; op: 'set'; path: Path; value: JsonValue }
    | { kind: string; op: 'delete'; path: Path }
    /** An identifier kept recognisable: the unusual text is appended to its value. */
    | { kind: string; op: 'suffix'; path: Path; text: string }
    /** A field the schema does not name (additional properties are allowed). */
    | { kind: string; op: 'add'; name: string; value: JsonValue }
    | { kind: string; op: 'array-body'; wrapped: boolean }
    | { kind: string; op: 'string-body'; encoded: boolean }
    | { kind: string; op: 'nested'; key: string }
  );

/** Where the exploration may act in a body, as field names or `array/*\/field` patterns. */
export interface ExploreShape {
  fields: readonly RequestField[];
  /** Fields (patterns) whose requiredness the spec states: only their absence is a mismatch. */
  requiredStated: readonly string[];
  /** Free text: any string is valid content there. */
  text?: readonly string[];
  /** Identifiers: unusual text is appended, so they stay unique (they may no longer name anything). */
  ids?: readonly string[];
  /** Fields a mismatch leaves alone (e.g. the upsert key read back afterwards); no whole-body case either. */
  keep?: readonly string[];
  /** The item of each object array the base body holds whose fields are mutated (default 0). */
  item?: number;
}

/** A class of cases: a name and its generator. */
export interface CaseClass {
  kind: string;
  arb: fc.Arbitrary<Mutation>;
}

export interface Leaf {
  pattern: string;
  path: Path;
  field: RequestField;
}

/** Every field of the shape as a concrete path (array items at `item`), depth first. */
export function leaves(shape: ExploreShape): Leaf[] {
  const at = shape.item ?? 0;
  const out: Leaf[] = [];
  for (const field of shape.fields) {
    out.push({ pattern: field.name, path: [field.name], field });
    if (field.kind === 'object-array')
      for (const sub of field.items ?? [])
        out.push({ pattern: `${field.name}/*/${sub.name}`, path: [field.name, at, sub.name], field: sub });
    if (field.kind === 'string-array')
      out.push({
        pattern: `${field.name}/*`,
        path: [field.name, at],
        field: { name: `${field.name}[]`, kind: 'string', required: false },
      });
  }
  return out;
}

type WrongType = 'number' | 'object' | 'array' | 'null' | 'boolean' | 'string';

/** Whether a value of JSON type `w` mismatches a field of this kind. */
function mismatches(w: WrongType, field: RequestField): boolean {
  const kind: FieldKind = field.kind;
  switch (w) {
    case 'number':
      return kind !== 'integer' && kind !== 'int64';
    case 'object':
      return true;
    case 'array':
      return kind !== 'string-array' && kind !== 'object-array';
    case 'null':
      return kind === 'enum' ? !(field.values ?? []).includes(null) : kind !== 'nullable-string';
    case 'boolean':
      return kind !== 'boolean';
    case 'string':
      return kind !== 'string' && kind !== 'nullable-string' && kind !== 'enum';
  }
}

const smallText = fc.string({ maxLength: 12 });

function wrongValue(w: WrongType, field: RequestField): fc.Arbitrary<JsonValue> {
  switch (w) {
    case 'number':
      return fc.oneof(fc.integer({ min: -1000, max: 1_000_000 }), fc.constant(0));
    case 'object':
      return fc.oneof(
        fc.constant({}),
        fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), smallText, { maxKeys: 2 }),
      );
    case 'array':
      return fc.array(smallText, { maxLength: 3 }).map((items): JsonValue => items);
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'string':
      // A number written as a string where an integer goes; any text where a boolean or an array goes.
      return field.kind === 'integer' || field.kind === 'int64'
        ? fc.integer({ min: field.minimum ?? 1, max: Math.min(field.maximum ?? 20, 20) }).map(String)
        : smallText;
  }
}

const TWO_POW_31 = 2 ** 31;
const TWO_POW_63 = 2n ** 63n;

const isInteger = (f: RequestField): boolean => f.kind === 'integer' || f.kind === 'int64';

/** The classes of schema-violating cases that apply to a shape (none touches a `keep` field). */
export function mismatchClasses(shape: ExploreShape): CaseClass[] {
  const keep = new Set(shape.keep ?? []);
  const all = leaves(shape).filter((l) => !keep.has(l.pattern));
  const classes: CaseClass[] = [];
  const pick = (targets: Leaf[], value: (l: Leaf) => fc.Arbitrary<JsonValue>, kind: string): void => {
    if (targets.length === 0) return;
    classes.push({
      kind,
      arb: fc
        .constantFrom(...targets)
        .chain((l) => value(l).map((v): Mutation => ({ kind, op: 'set', path: l.path, value: v }))),
    });
  };
  for (const w of ['number', 'object', 'array', 'null', 'boolean', 'string'] as const) {
    pick(
      all.filter((l) => mismatches(w, l.field)),
      (l) => wrongValue(w, l.field),
      w === 'string' ? 'wrong-type:string (numbers written as strings)' : `wrong-type:${w}`,
    );
  }
  const integers = all.filter((l) => isInteger(l.field));
  pick(
    integers,
    (l) =>
      fc
        // Near the minimum, where every value of the range is usual (a sandbox caps target_count at 20).
        .integer({ min: l.field.minimum ?? 0, max: Math.min(l.field.maximum ?? 1000, (l.field.minimum ?? 0) + 9) })
        .map((n) => new JsonDecimal(`${n}.5`)),
    'fractional-integer',
  );
  const ranged = integers.filter((l) => l.field.minimum !== undefined || l.field.maximum !== undefined);
  pick(
    ranged,
    (l) => {
      const below =
        l.field.minimum !== undefined ? [fc.integer({ min: l.field.minimum - 1000, max: l.field.minimum - 1 })] : [];
      const above =
        l.field.maximum !== undefined ? [fc.integer({ min: l.field.maximum + 1, max: l.field.maximum + 1000 })] : [];
      return fc.oneof(...below, ...above);
    },
    'out-of-range-integer',
  );
  pick(
    integers.filter((l) => l.field.maximum !== undefined && l.field.maximum < TWO_POW_31),
    () => fc.integer({ min: 0, max: 1000 }).map((k) => TWO_POW_31 + k),
    'integer-past-2^31',
  );
  pick(integers, () => fc.bigInt({ min: 0n, max: 1000n }).map((k) => TWO_POW_63 + k), 'integer-past-2^63');
  const required = all.filter((l) => shape.requiredStated.includes(l.pattern));
  if (required.length > 0)
    classes.push({
      kind: 'required-missing',
      arb: fc
        .constantFrom(...required)
        .map((l): Mutation => ({ kind: 'required-missing', op: 'delete', path: l.path })),
    });
  if (keep.size === 0) {
    classes.push({
      kind: 'array-body',
      arb: fc.boolean().map((wrapped): Mutation => ({ kind: 'array-body', op: 'array-body', wrapped })),
    });
    classes.push({
      kind: 'string-body',
      arb: fc.boolean().map((encoded): Mutation => ({ kind: 'string-body', op: 'string-body', encoded })),
    });
    if (shape.requiredStated.some((p) => !p.includes('/')))
      classes.push({
        kind: 'extra-nesting',
        arb: fc
          .constantFrom('data', 'body', 'request', 'payload')
          .map((key): Mutation => ({ kind: 'extra-nesting', op: 'nested', key })),
      });
  }
  return classes;
}

/** Text outside the Basic Multilingual Plane: emoji, a ZWJ sequence, a flag, any astral code point. */
const outsideBmp = fc
  .array(
    fc.oneof(
      fc.constantFrom('😀', '🧑🏽‍💻', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢', '𠜎', '🏳️‍🌈'),
      fc.integer({ min: 0x10000, max: 0x10ffff }).map((cp) => String.fromCodePoint(cp)),
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((parts) => `Noa ${parts.join('')}`);
const combining = fc
  .array(fc.constantFrom('\u0301', '\u0308', '\u0323', '\u0336', '\u20dd', '\u0489'), { minLength: 1, maxLength: 8 })
  .map((marks) => `Jose${marks.join('')} e\u0301`);
const rightToLeft = fc.constantFrom(
  'נועה כהן',
  'مهندس بيانات',
  'Data \u202eAnalyst\u202c',
  '\u200fשלום\u200e abc',
  'אנליסט/ית Data 2026',
);
/** Control characters JSON carries escaped (NUL among them), and the two JSON allows raw but JavaScript did not. */
const controls = fc
  .array(
    fc.oneof(
      fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)),
      fc.constantFrom('\u007f', '\u2028', '\u2029'),
    ),
    {
      minLength: 1,
      maxLength: 3,
    },
  )
  .map((cs) => `Noa${cs.join('')}Cohen`);
/** Long text within reason: a few thousand characters (the spec shows no size limit for most text). */
const longText = fc
  .integer({ min: 1000, max: 4000 })
  .map((n) => 'Data analyst, SQL and dashboards. '.repeat(Math.ceil(n / 34)).slice(0, n));

const OPEN_CONTROLS = 'control characters in text (U+0000 among them)';
const OPEN_LENGTH = 'a text length the spec bounds nowhere';
const OPEN_FIELD = 'a request field the spec does not name';
const OPEN_ID = 'an id beyond any listed candidate';

/** Each class of unusual text, and whether the spec leaves its handling open (for a field of no stated bound). */
const TEXT_CLASSES: ReadonlyArray<[string, fc.Arbitrary<string>, string | undefined]> = [
  ['text:outside-bmp', outsideBmp, undefined],
  ['text:combining-marks', combining, undefined],
  ['text:right-to-left', rightToLeft, undefined],
  ['text:control-characters', controls, OPEN_CONTROLS],
  ['text:long', longText, OPEN_LENGTH],
];

/** Where a bound is stated (requirement text: 300 characters, `too_long`), a long value is addressed by the spec. */
function textOpenness(reason: string | undefined, field: RequestField | undefined): Openness {
  if (reason === OPEN_LENGTH && field?.maxLength !== undefined) return {};
  return reason === undefined ? {} : { open: reason };
}

/**
 * The classes of valid cases with unusual values. `textOnly`: only unusual text in free-text fields and
 * an extra field (the cases a conformant service answers 2xx, for the response-schema property).
 */
export function unusualClasses(shape: ExploreShape, opts: { textOnly?: boolean } = {}): CaseClass[] {
  const all = leaves(shape);
  const text = all.filter((l) => (shape.text ?? []).includes(l.pattern));
  const ids = opts.textOnly ? [] : all.filter((l) => (shape.ids ?? []).includes(l.pattern));
  const classes: CaseClass[] = [];
  for (const [kind, values, reason] of TEXT_CLASSES) {
    const targets: fc.Arbitrary<Mutation>[] = [];
    if (text.length > 0)
      targets.push(
        fc.constantFrom(...text).chain((l) =>
          values.map((value): Mutation => ({
            kind,
            op: 'set',
            path: l.path,
            value,
            ...textOpenness(reason, l.field),
          })),
        ),
      );
    if (ids.length > 0)
      targets.push(
        fc.constantFrom(...ids).chain((l) =>
          values.map((t): Mutation => ({
            kind,
            op: 'suffix',
            path: l.path,
            text: t,
            ...textOpenness(reason, l.field),
          })),
        ),
      );
    targets.push(
      values.map((value): Mutation => ({ kind, op: 'add', name: 'zz_explore_note', value, open: OPEN_FIELD })),
    );
    classes.push({ kind, arb: fc.oneof(...targets) });
  }
  if (opts.textOnly) return classes;
  const bounded = all.filter((l) => l.field.kind === 'integer' && !(shape.ids ?? []).includes(l.pattern));
  const boundaries = (f: RequestField): JsonValue[] =>
    [f.minimum, f.maximum].filter((n): n is number => n !== undefined);
  const withBounds = bounded.filter((l) => boundaries(l.field).length > 0);
  if (withBounds.length > 0)
    classes.push({
      kind: 'integer:boundary',
      arb: fc
        .constantFrom(...withBounds)
        .chain((l) =>
          fc
            .constantFrom(...boundaries(l.field))
            .map((value): Mutation => ({ kind: 'integer:boundary', op: 'set', path: l.path, value })),
        ),
    });
  const int64s = all.filter((l) => l.field.kind === 'int64');
  if (int64s.length > 0)
    classes.push({
      kind: 'int64:boundary',
      arb: fc
        .constantFrom(...int64s)
        .chain((l) =>
          fc
            .constantFrom<JsonValue>(TWO_POW_31, 2n ** 53n + 1n, TWO_POW_63 - 1n, 0)
            .map((value): Mutation => ({ kind: 'int64:boundary', op: 'set', path: l.path, value, open: OPEN_ID })),
        ),
    });
  const arrays = all.filter(
    (l) => l.path.length === 1 && (l.field.kind === 'string-array' || l.field.kind === 'object-array'),
  );
  if (arrays.length > 0)
    classes.push({
      kind: 'array:empty',
      arb: fc
        .constantFrom(...arrays)
        .map((l): Mutation => ({ kind: 'array:empty', op: 'set', path: l.path, value: [] })),
    });
  return classes;
}

/** A drawn case: its class, its place in the class's seeded stream, and the mutation. */
export interface DrawnCase {
  classIndex: number;
  run: number;
  mutation: Mutation;
}

/** A 32-bit seed per stream: the certification's seed mixed with a name (FNV-1a). */
export function streamSeed(seed: number, name: string): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (const ch of name) {
    h ^= ch.codePointAt(0) ?? 0;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h & 0x7fffffff;
}

/** The `run`-th value of a class's seeded stream, drawn alone (fast-check walks the stream lazily to it). */
function drawOne(cls: CaseClass, seed: number, run: number): Mutation | undefined {
  return fc.sample(cls.arb, { seed: streamSeed(seed, cls.kind), path: String(run), numRuns: 1 })[0];
}

/**
 * `count` cases: first the fixed sweep (classIndex -1: nothing to shrink), then the classes in turn
 * (each its own stream: streamSeed(seed, kind)), so every class comes early. Drawn one at a time as
 * they are consumed: a large --explore holds one case in memory, not all of them.
 */
export function* drawCases(
  classes: readonly CaseClass[],
  count: number,
  seed: number,
  sweep: readonly Mutation[] = [],
): Generator<DrawnCase> {
  let i = 0;
  for (const mutation of sweep) {
    if (i >= count) return;
    yield { classIndex: -1, run: i, mutation };
    i++;
  }
  if (classes.length === 0) return;
  for (let k = 0; i < count; k++, i++) {
    const classIndex = k % classes.length;
    const run = Math.floor(k / classes.length);
    const cls = classes[classIndex];
    const mutation = cls ? drawOne(cls, seed, run) : undefined;
    if (mutation) yield { classIndex, run, mutation };
  }
}

/**
 * Shrinks a failing case with fast-check: its run is replayed from the class's stream (`path`) and
 * shrunk while `stillFails` says so. At most `maxTries` candidates are tried (each may cost requests);
 * past that, every candidate counts as passing, which ends the shrink at the smallest failure found.
 */
export async function shrinkCase(
  cls: CaseClass,
  seed: number,
  drawn: DrawnCase,
  stillFails: (m: Mutation) => Promise<boolean>,
  maxTries: number,
): Promise<{ mutation: Mutation; tries: number; shrinks: number }> {
  let tries = 0;
  const details = await fc.check(
    fc.asyncProperty(cls.arb, async (m) => {
      if (tries >= maxTries) return true;
      tries++;
      return !(await stillFails(m));
    }),
    { seed: streamSeed(seed, cls.kind), path: String(drawn.run), numRuns: drawn.run + 1, endOnFailure: false },
  );
  const found = details.failed ? details.counterexample?.[0] : undefined;
  return { mutation: found ?? drawn.mutation, tries, shrinks: details.numShrinks };
}

function cloneJson(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(cloneJson);
  if (isJsonObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, cloneJson(x)]));
  return v;
}

function containerAt(
  body: JsonValue,
  path: Path,
): { parent: JsonValue[] | JsonObject; key: string | number } | undefined {
  let cur: JsonValue = body;
  for (let i = 0; i < path.length - 1; i++) {
    const seg = path[i];
    if (seg === undefined) return undefined;
    const next: JsonValue | undefined =
      typeof seg === 'number' ? (Array.isArray(cur) ? cur[seg] : undefined) : isJsonObject(cur) ? cur[seg] : undefined;
    if (next === undefined) return undefined;
    cur = next;
  }
  const key = path[path.length - 1];
  if (key === undefined) return undefined;
  if (Array.isArray(cur) || isJsonObject(cur)) return { parent: cur, key };
  return undefined;
}

function setAt(parent: JsonValue[] | JsonObject, key: string | number, value: JsonValue | undefined): void {
  if (Array.isArray(parent)) {
    if (typeof key !== 'number') return;
    if (value === undefined) parent.splice(key, 1);
    else parent[key] = value;
  } else if (value === undefined) delete parent[String(key)];
  else parent[String(key)] = value;
}

/** The body a mutation makes of a valid base body (the base is not changed). */
export function applyMutation(base: JsonObject, m: Mutation): JsonValue {
  const body = cloneJson(base);
  switch (m.op) {
    case 'none':
      return body;
    case 'array-body':
      return m.wrapped ? [body] : [];
    case 'string-body':
      return m.encoded ? stringifyJsonLossless(body) : 'explore';
    case 'nested':
      return { [m.key]: body };
    case 'add':
      if (isJsonObject(body)) body[m.name] = m.value;
      return body;
    case 'set':
    case 'delete':
    case 'suffix': {
      const at = containerAt(body, m.path);
      if (!at) return body;
      const current = Array.isArray(at.parent) ? at.parent[Number(at.key)] : at.parent[String(at.key)];
      const value = m.op === 'set' ? m.value : m.op === 'suffix' ? `${String(current ?? '')}${m.text}` : undefined;
      setAt(at.parent, at.key, value);
      return body;
    }
  }
}

function render(v: JsonValue, max = 80): string {
  const text = stringifyJsonLossless(v);
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
}

const pointer = (path: Path): string => `/${path.map((s) => String(s)).join('/')}`;

/** One line saying what the case did to the valid body, and which kind of input it is. */
export function describeMutation(m: Mutation): string {
  const what = describeChange(m);
  return m.open === undefined ? what : `${what} [an input the spec does not address: ${m.open}]`;
}

function describeChange(m: Mutation): string {
  switch (m.op) {
    case 'none':
      return 'the valid body as it is';
    case 'array-body':
      return m.wrapped ? 'the valid body wrapped in an array as the whole body' : 'an empty array as the whole body';
    case 'string-body':
      return m.encoded ? 'the valid body JSON-encoded again, a string as the whole body' : 'a string as the whole body';
    case 'nested':
      return `the valid body nested one level down, under "${m.key}"`;
    case 'add':
      return `an extra field ${m.name} = ${render(m.value)}`;
    case 'set':
      return `${pointer(m.path)} = ${render(m.value)} (${m.kind})`;
    case 'delete':
      return `${pointer(m.path)} left out (${m.kind})`;
    case 'suffix':
      return `${pointer(m.path)} with ${render(m.text)} appended (${m.kind})`;
  }
}
