// The fields of a request body as its JSON Schema in schemas/ declares them: what the exploration
// generates requests from (src/schema/explore-cases.ts). Only the forms the request schemas use are
// read; a schema using another form throws, so a new schema cannot be explored by a silent guess.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findSchemasDir } from './schemas-dir.js';
import { isSchemaName, type SchemaName } from './schema-names.js';

export type FieldKind =
  'string' | 'nullable-string' | 'integer' | 'int64' | 'boolean' | 'enum' | 'string-array' | 'object-array';

export interface RequestField {
  name: string;
  kind: FieldKind;
  /** In the schema's `required`. */
  required: boolean;
  /** enum: the allowed values (null among them when the field is nullable). */
  values?: ReadonlyArray<string | null>;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  /** JSON Schema `format`: an annotation only, never a reason to call a value a mismatch. */
  format?: string;
  /** object-array: the fields of each item. */
  items?: RequestField[];
}

type Raw = Record<string, unknown>;

const isRecord = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

function readSchema(name: SchemaName): Raw {
  const parsed: unknown = JSON.parse(readFileSync(join(findSchemasDir(), `${name}.schema.json`), 'utf8'));
  if (!isRecord(parsed)) throw new Error(`schemas/${name}.schema.json is not an object`);
  return parsed;
}

function refName(ref: unknown, where: string): SchemaName {
  if (typeof ref !== 'string' || !isSchemaName(ref)) throw new Error(`${where}: $ref ${String(ref)} names no schema`);
  return ref;
}

function fieldOf(name: string, raw: Raw, required: boolean, where: string): RequestField {
  const base = { name, required };
  const num = (k: string): number | undefined => (typeof raw[k] === 'number' ? raw[k] : undefined);
  if (raw.int64 === true) return { ...base, kind: 'int64' };
  if (Array.isArray(raw.enum)) {
    const values = raw.enum.filter((v): v is string | null => typeof v === 'string' || v === null);
    return { ...base, kind: 'enum', values };
  }
  const type = raw.type;
  if (type === 'string') {
    const maxLength = num('maxLength');
    return {
      ...base,
      kind: 'string',
      ...(maxLength !== undefined ? { maxLength } : {}),
      ...(typeof raw.format === 'string' ? { format: raw.format } : {}),
    };
  }
  if (Array.isArray(type) && type.length === 2 && type.includes('string') && type.includes('null'))
    return { ...base, kind: 'nullable-string' };
  if (type === 'integer') {
    const minimum = num('minimum');
    const maximum = num('maximum');
    return {
      ...base,
      kind: 'integer',
      ...(minimum !== undefined ? { minimum } : {}),
      ...(maximum !== undefined ? { maximum } : {}),
    };
  }
  if (type === 'boolean') return { ...base, kind: 'boolean' };
  if (type === 'array' && isRecord(raw.items)) {
    if (raw.items.type === 'string') return { ...base, kind: 'string-array' };
    if (raw.items.$ref !== undefined)
      return { ...base, kind: 'object-array', items: requestFields(refName(raw.items.$ref, where)) };
  }
  throw new Error(`${where}: the form of field "${name}" is not one the exploration reads`);
}

const cache = new Map<SchemaName, RequestField[]>();

/** The fields of a request schema (an object schema of `properties`), in the schema's order. */
export function requestFields(name: SchemaName): RequestField[] {
  const known = cache.get(name);
  if (known) return known;
  const schema = readSchema(name);
  const where = `schemas/${name}.schema.json`;
  if (schema.type !== 'object' || !isRecord(schema.properties)) throw new Error(`${where}: not an object schema`);
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : []);
  const fields = Object.entries(schema.properties).map(([field, raw]) => {
    if (!isRecord(raw)) throw new Error(`${where}: field "${field}" is not a schema`);
    return fieldOf(field, raw, required.has(field), where);
  });
  cache.set(name, fields);
  return fields;
}
