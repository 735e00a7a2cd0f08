// Validates values against the schemas of schemas/. The ajv instance is built and every schema
// compiled on first use, once per process: compilation is the expensive part.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import { addSpecFormats } from './formats.js';
import { int64Keyword } from './int64-keyword.js';
import { jsonObjectKeyword, withJsonObjectChecks } from './json-object-keyword.js';
import { isJsonObject } from '../json/lossless.js';
import { findSchemasDir } from './schemas-dir.js';
import { collectingMissing, expectedKeyword, specKeyword } from './spec-keywords.js';
import { SCHEMA_NAMES, isSchemaName, type SchemaName } from './schema-names.js';
import { toSchemaIssues, type SchemaIssue } from './schema-issue.js';

export { SCHEMA_NAMES, isSchemaName, type SchemaName } from './schema-names.js';
export type { SchemaIssue } from './schema-issue.js';

// ajv-formats is CommonJS with `exports.default`; under NodeNext the default import is the
// module object, whose `default` is the plugin.
const addFormats = formatsModule.default;

function loadSchema(dir: string, name: SchemaName): Record<string, unknown> {
  const file = join(dir, `${name}.schema.json`);
  const schema: Record<string, unknown> = JSON.parse(readFileSync(file, 'utf8'));
  if (schema.$id !== name) throw new Error(`${file}: $id is ${JSON.stringify(schema.$id)}, expected "${name}"`);
  return withJsonObjectChecks(schema) as Record<string, unknown>;
}

/**
 * Two ajv instances over the same schemas. The first-error one judges: it stops at the first
 * fault, so its time is linear in the value. The all-errors one lists the issues of a value that
 * failed, on a copy whose arrays are cut (DETAILED_ITEMS): ajv's all-errors code concatenates the
 * error list of every `$ref`'d item into a new array, quadratic in the number of failing items (a
 * target answering 20,000 bad candidates took 34 s of one core and GBs; 1e6 never ended).
 */
type Mode = 'first-error' | 'all-errors';
const registries = new Map<Mode, Ajv2020>();
const compiled = new Map<Mode, Map<SchemaName, ValidateFunction>>();

/** The ajv instance with every schema added (cheap); compilation happens per schema on first use. */
function schemaRegistry(mode: Mode): Ajv2020 {
  const known = registries.get(mode);
  if (known) return known;
  // verbose: issues quote the offending value; allowUnionTypes: "string or null" is a type list.
  const ajv = new Ajv2020({ allErrors: mode === 'all-errors', verbose: true, strict: true, allowUnionTypes: true });
  addFormats(ajv);
  addSpecFormats(ajv);
  ajv.addKeyword(int64Keyword);
  ajv.addKeyword(jsonObjectKeyword);
  ajv.addKeyword(specKeyword);
  ajv.addKeyword(expectedKeyword);
  const dir = findSchemasDir();
  for (const name of SCHEMA_NAMES) ajv.addSchema(loadSchema(dir, name));
  registries.set(mode, ajv);
  return ajv;
}

/**
 * The compiled validator of one schema. Compiling all of them takes about a second of synchronous
 * work, which would stall every exchange in flight (and an in-process target) at the start of a
 * certification; a certification only needs the schemas its checks use, and the all-errors
 * validators only for values that failed.
 */
function validatorFor(name: SchemaName, mode: Mode = 'first-error'): ValidateFunction {
  let byName = compiled.get(mode);
  if (!byName) compiled.set(mode, (byName = new Map()));
  const known = byName.get(name);
  if (known) return known;
  const validate = schemaRegistry(mode).getSchema(name);
  if (!validate) throw new Error(`schema "${name}" did not compile`);
  byName.set(name, validate);
  return validate;
}

/**
 * Issues are listed in detail for the first DETAILED_ITEMS items of each array: a report shows a
 * handful of issues anyway (the runner keeps 8 per assertion), and a fault past them is still
 * found by the first-error pass over the whole value.
 */
export const DETAILED_ITEMS = 100;

/** `value` with every array cut to its first DETAILED_ITEMS items (only arrays and plain objects are copied). */
function cutArrays(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, DETAILED_ITEMS).map(cutArrays);
  if (isJsonObject(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) out[key] = cutArrays(value[key]);
    return out;
  }
  return value;
}

/** Compiles every schema, in both modes; throws if any schema is broken. */
export function compileSchemas(): ReadonlyMap<SchemaName, ValidateFunction> {
  for (const name of SCHEMA_NAMES) validatorFor(name, 'all-errors');
  return new Map(SCHEMA_NAMES.map((name) => [name, validatorFor(name)]));
}

/** The issues of `value` against schema `name`; [] when it is valid. Fields merely missing are not issues. */
export function validateAgainst(name: SchemaName, value: unknown): SchemaIssue[] {
  return judgeAgainst(name, value).filter((i) => i.severity !== 'warning');
}

/**
 * The issues of `value` against schema `name`, and after them a `warning` issue for each field the
 * spec's table lists without stating it always present (`x-expected`) that the value lacks.
 */
export function judgeAgainst(name: SchemaName, value: unknown): SchemaIssue[] {
  if (!isSchemaName(name)) throw new Error(`unknown schema "${name}"`);
  const judge = validatorFor(name);
  const { result: valid, missing } = collectingMissing(() => judge(value));
  const notes = missing.map(missingIssue);
  if (valid) return notes;
  return [...failures(name, judge, value), ...notes];
}

function missingIssue(m: { pointer: string; field: string }): SchemaIssue {
  return {
    pointer: m.pointer,
    keyword: 'x-expected',
    message: `has no property '${m.field}'`,
    received: 'absent',
    severity: 'warning',
  };
}

function failures(name: SchemaName, judge: ValidateFunction, value: unknown): SchemaIssue[] {
  const firstError = judge.errors ?? [];
  const detail = validatorFor(name, 'all-errors');
  // The fault lies past the items listed in detail: its first error is the issue.
  if (detail(cutArrays(value))) return toSchemaIssues(firstError);
  return toSchemaIssues(detail.errors ?? []);
}
