// The components/schemas of the OpenAPI description, derived at run time from the JSON Schemas of
// schemas/ that the checks validate with: one source, so the description and the certifier cannot
// drift apart. Each schema is rewritten only where OpenAPI tooling reads it differently:
//
// - `$ref: "<name>"` (resolved by $id inside ajv) becomes `#/components/schemas/<Component>`, and
//   `$id`/`$schema` are dropped: a relative $id would make every tool resolve refs against it;
// - the certifier's own keyword `"int64": true` (candidate ids may exceed 2^53, see
//   src/schema/int64-keyword.ts) becomes `type: integer, format: int64`, the OpenAPI registry form;
// - the format `utc-date-time` (src/schema/formats.ts: ISO 8601 in UTC) becomes `date-time`, the
//   RFC 3339 profile client generators parse. The checks accept ISO 8601's basic form too but warn
//   about it, so the description names the form a conformant service sends.

import { isOneOf } from '../narrow.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findSchemasDir } from '../schema/schemas-dir.js';
import { SCHEMA_NAMES, type SchemaName } from '../schema/schema-names.js';

/** The schemas of the API; `results` is svc-certify's own output, not part of v1. */
export const API_SCHEMA_NAMES = SCHEMA_NAMES.filter((n): n is Exclude<SchemaName, 'results'> => n !== 'results');
export type ApiSchemaName = (typeof API_SCHEMA_NAMES)[number];

/** `candidate-requirement` → `CandidateRequirement`: the type names client generators derive. */
export function componentName(name: ApiSchemaName): string {
  return name.replace(/(^|-)([a-z0-9])/g, (_m, _dash: string, c: string) => c.toUpperCase());
}

/** A `$ref` to the component of schema `name`. */
export function schemaRef(name: ApiSchemaName): { $ref: string } {
  return { $ref: `#/components/schemas/${componentName(name)}` };
}

const DROPPED = new Set(['$id', '$schema']);
/**
 * Keys whose value is data, not a subschema. `x-spec` (the spec's words behind each constraint) and
 * `x-expected` (fields listed but not stated always present) pass through as OpenAPI extensions.
 */
const DATA_KEYS = new Set(['const', 'enum', 'default', 'examples', 'example', 'x-spec', 'x-expected']);

function isApiSchemaName(name: string): name is ApiSchemaName {
  return isOneOf(API_SCHEMA_NAMES, name);
}

function convert(node: unknown, file: string): unknown {
  if (Array.isArray(node)) return node.map((n) => convert(n, file));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (DROPPED.has(key)) continue;
    if (DATA_KEYS.has(key)) out[key] = value;
    else if (key === '$ref') {
      if (typeof value !== 'string' || !isApiSchemaName(value))
        throw new Error(`${file}: $ref ${JSON.stringify(value)} names no schema of the API`);
      out.$ref = schemaRef(value).$ref;
    } else if (key === 'int64') {
      if (value === true) Object.assign(out, { type: 'integer', format: 'int64' });
    } else if (key === 'format' && value === 'utc-date-time') out.format = 'date-time';
    else out[key] = convert(value, file);
  }
  return out;
}

/** Properties only the sandbox sends (spec: Sandbox behaviour; Versioning, rule 4): marked like the route and headers. */
const SANDBOX_ONLY_PROPERTIES: Partial<Record<ApiSchemaName, readonly string[]>> = {
  'run-start-response': ['sandbox'],
  run: ['sandbox'],
  'reveal-result': ['sandbox'],
};

function markSandboxOnly(schema: Record<string, unknown>, name: ApiSchemaName): Record<string, unknown> {
  const properties = schema.properties as Record<string, Record<string, unknown>> | undefined;
  for (const property of SANDBOX_ONLY_PROPERTIES[name] ?? []) {
    if (!properties?.[property])
      throw new Error(`schemas/${name}.schema.json: no property "${property}" to mark sandbox-only`);
    properties[property] = {
      ...properties[property],
      'x-sandbox-only': true,
      description: 'Sandbox only; production never sends it.',
    };
  }
  return schema;
}

/** Every schema of the API as an OpenAPI component, keyed by component name, in SCHEMA_NAMES order. */
export function componentSchemas(dir: string = findSchemasDir()): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const name of API_SCHEMA_NAMES) {
    const file = join(dir, `${name}.schema.json`);
    const schema = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    if (schema.$id !== name) throw new Error(`${file}: $id is ${JSON.stringify(schema.$id)}, expected "${name}"`);
    out[componentName(name)] = markSandboxOnly(convert(schema, file) as Record<string, unknown>, name);
  }
  return out;
}
