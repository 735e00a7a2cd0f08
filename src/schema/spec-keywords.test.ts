// The schemas of the API say only what the spec says: every constraint carries, in `x-spec`, the words
// of the spec it comes from, and those words are in the spec. A field a table lists without stating it
// always present is `x-expected` (missing: a warning), never `required`. results.schema.json is left out:
// it describes svc-certify's own report, not the API.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../package-root.js';
import { findSchemasDir } from './schemas-dir.js';
import { SCHEMA_NAMES } from './schema-names.js';
import { EXPECTED_KEYWORD, SPEC_KEYWORD } from './spec-keywords.js';
import { judgeAgainst, validateAgainst } from './validator.js';

/** The keywords that constrain a value: each needs the spec's words. */
const CONSTRAINTS = [
  'required',
  EXPECTED_KEYWORD,
  'enum',
  'const',
  'format',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'int64',
];
/** Where subschemas sit (a map of them, a list of them, or one). */
const MAPS = ['properties', '$defs', 'patternProperties'];
const LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SINGLE = ['items', 'not', 'additionalProperties', 'if', 'then', 'else'];

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whitespace runs as one space: a quote may wrap where the spec does not. */
const normal = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** Every problem of one schema's annotations, as "<schema> <pointer>: <what>". */
export function annotationProblems(name: string, schema: unknown, specText: string): string[] {
  const spec = normal(specText);
  const out: string[] = [];
  const visit = (node: unknown, at: string): void => {
    if (!isNode(node)) return;
    const notes = node[SPEC_KEYWORD];
    const annotated = isNode(notes) ? notes : {};
    if (notes !== undefined && !isNode(notes)) out.push(`${name} ${at}: ${SPEC_KEYWORD} is not an object`);
    for (const kw of CONSTRAINTS) {
      if (!(kw in node)) continue;
      const quote = annotated[kw];
      const quotes = typeof quote === 'string' ? [quote] : Array.isArray(quote) ? quote : [];
      if (quotes.length === 0 || quotes.some((q) => typeof q !== 'string' || q.trim() === ''))
        out.push(`${name} ${at}: ${kw} carries no spec sentence in ${SPEC_KEYWORD}`);
      for (const q of quotes)
        if (typeof q === 'string' && q.trim() !== '' && !spec.includes(normal(q)))
          out.push(`${name} ${at}: the ${kw} quote is not in the spec: ${q}`);
    }
    for (const kw of Object.keys(annotated))
      if (!(kw in node)) out.push(`${name} ${at}: ${SPEC_KEYWORD} quotes ${kw}, which this schema does not use`);
    const listed = node[EXPECTED_KEYWORD];
    if (listed !== undefined) {
      const properties = isNode(node.properties) ? node.properties : {};
      const required = Array.isArray(node.required) ? node.required : [];
      for (const field of Array.isArray(listed) ? listed : [])
        if (typeof field !== 'string' || !(field in properties))
          out.push(`${name} ${at}: ${EXPECTED_KEYWORD} names ${String(field)}, not a property`);
        else if (required.includes(field)) out.push(`${name} ${at}: ${field} is both required and ${EXPECTED_KEYWORD}`);
    }
    for (const k of MAPS)
      if (isNode(node[k])) for (const [p, sub] of Object.entries(node[k])) visit(sub, `${at}/${k}/${p}`);
    for (const k of LISTS)
      if (Array.isArray(node[k])) (node[k] as unknown[]).forEach((sub, i) => visit(sub, `${at}/${k}/${i}`));
    for (const k of SINGLE) visit(node[k], `${at}/${k}`);
  };
  visit(schema, '');
  return out;
}

const specText = readFileSync(join(packageRoot(), 'spec', 'partner-api-v1.md'), 'utf8');
const schemaOf = (name: string): unknown =>
  JSON.parse(readFileSync(join(findSchemasDir(), `${name}.schema.json`), 'utf8'));

describe('schemas say only what the spec says', () => {
  it('every required, x-expected, enum, const, format, pattern, bound and int64 quotes the spec, and the quote is in it', () => {
    const names = SCHEMA_NAMES.filter((n) => n !== 'results');
    expect(names.length).toBeGreaterThanOrEqual(38);
    expect(names.flatMap((n) => annotationProblems(n, schemaOf(n), specText))).toEqual([]);
  });

  it('fails a constraint without a quote, a quote the spec lacks, a stale quote and a listed field that is also required', () => {
    const bad = {
      type: 'object',
      required: ['a'],
      'x-expected': ['a', 'zz'],
      properties: {
        a: { type: 'integer', minimum: 0 },
        b: { enum: ['x'], 'x-spec': { enum: 'words the spec never says', maximum: 'Timestamps are ISO 8601 in UTC.' } },
      },
      'x-spec': { required: 'Required fields: `run_id`' },
    };
    expect(annotationProblems('bad', bad, specText)).toEqual([
      'bad : x-expected carries no spec sentence in x-spec',
      'bad : a is both required and x-expected',
      'bad : x-expected names zz, not a property',
      'bad /properties/a: minimum carries no spec sentence in x-spec',
      'bad /properties/b: the enum quote is not in the spec: words the spec never says',
      'bad /properties/b: x-spec quotes maximum, which this schema does not use',
    ]);
  });
});

describe('a field listed but never stated always present', () => {
  const issue = { index: 0, code: 'duplicate', message_he: 'כפול', message_en: 'Duplicate' };

  it('missing (a serializer that omits nulls) is a warning issue, not a mismatch', () => {
    expect(validateAgainst('requirement-issue', issue)).toEqual([]);
    expect(judgeAgainst('requirement-issue', issue)).toEqual([
      expect.objectContaining({ pointer: '/suggestion_he', keyword: EXPECTED_KEYWORD, severity: 'warning' }),
      expect.objectContaining({ pointer: '/suggestion_en', keyword: EXPECTED_KEYWORD, severity: 'warning' }),
    ]);
  });

  it('is found inside arrays of referenced schemas, and present it is no issue', () => {
    const requirement = { index: 0, text: 'Go', kind: 'must' };
    expect(
      judgeAgainst('run-start-response', {
        run_id: '3f1e5b0c-8d2a-4c6e-9b7f-1a2b3c4d5e6f',
        status: 'running',
        warnings: [],
        requirements: [{ ...requirement, origin: 'partner' }, requirement],
      }),
    ).toEqual([expect.objectContaining({ pointer: '/requirements/1/origin', severity: 'warning' })]);
  });

  it('a field the spec states required still fails when missing', () => {
    const { message_en: _gone, ...rest } = { ...issue, suggestion_he: null, suggestion_en: null };
    expect(validateAgainst('requirement-issue', rest)).toEqual([
      expect.objectContaining({ pointer: '/message_en', keyword: 'required' }),
    ]);
  });
});
