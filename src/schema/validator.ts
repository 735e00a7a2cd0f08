// Validates values against the schemas of schemas/. The ajv instance is built and every schema
// compiled on first use, once per process: compilation is the expensive part.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import { addSpecFormats } from './formats.js';
import { int64Keyword } from './int64-keyword.js';
import { jsonObjectKeyword, withJsonObjectChecks } from './json-object-keyword.js';
import { findSchemasDir } from './package-root.js';
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

let registry: Ajv2020 | undefined;
const compiledByName = new Map<SchemaName, ValidateFunction>();

/** The ajv instance with every schema added (cheap); compilation happens per schema on first use. */
function schemaRegistry(): Ajv2020 {
  if (registry) return registry;
  // verbose: issues quote the offending value; allowUnionTypes: "string or null" is a type list.
  const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true });
  addFormats(ajv);
  addSpecFormats(ajv);
  ajv.addKeyword(int64Keyword);
  ajv.addKeyword(jsonObjectKeyword);
  const dir = findSchemasDir();
  for (const name of SCHEMA_NAMES) ajv.addSchema(loadSchema(dir, name));
  registry = ajv;
  return ajv;
}

/**
 * The compiled validator of one schema. Compiling all of them takes about a second of synchronous
 * work, which would stall every exchange in flight (and an in-process target) at the start of a
 * certification; a certification only needs the schemas its checks use.
 */
function validatorFor(name: SchemaName): ValidateFunction {
  const known = compiledByName.get(name);
  if (known) return known;
  const validate = schemaRegistry().getSchema(name);
  if (!validate) throw new Error(`schema "${name}" did not compile`);
  compiledByName.set(name, validate);
  return validate;
}

/** Compiles every schema (into the one cache, compiledByName); throws if any schema is broken. */
export function compileSchemas(): ReadonlyMap<SchemaName, ValidateFunction> {
  return new Map(SCHEMA_NAMES.map((name) => [name, validatorFor(name)]));
}

/** The issues of `value` against schema `name`; [] when it is valid. */
export function validateAgainst(name: SchemaName, value: unknown): SchemaIssue[] {
  if (!isSchemaName(name)) throw new Error(`unknown schema "${name}"`);
  const validate = validatorFor(name);
  if (validate(value)) return [];
  return toSchemaIssues(validate.errors ?? []);
}
