// The reject reasons the spec allows, read from the one place that states them for the certifier:
// schemas/decision.schema.json's `reject_reason` enum (null aside). The checks and the OpenAPI
// description take them from here, so a reason added to the schema reaches both.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findSchemasDir } from './schemas-dir.js';

let cached: readonly string[] | undefined;

export function rejectReasons(): readonly string[] {
  if (!cached) {
    const schema: unknown = JSON.parse(readFileSync(join(findSchemasDir(), 'decision.schema.json'), 'utf8'));
    const values: unknown = Reflect.get(
      Reflect.get(Reflect.get(Object(schema), 'properties') ?? {}, 'reject_reason') ?? {},
      'enum',
    );
    if (!Array.isArray(values)) throw new Error('schemas/decision.schema.json has no reject_reason enum');
    cached = values.filter((v): v is string => typeof v === 'string');
  }
  return cached;
}
