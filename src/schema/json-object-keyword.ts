// parseJsonLossless yields a JsonDecimal instance for `1.5`, and ajv's `type: "object"` accepts
// any JS object: without this keyword `"ref": 1.5` would pass as an object. The validator adds
// `"jsonObject": true` beside every `type: "object"` when it loads the schemas, so the schema
// files stay plain JSON Schema.

import type { KeywordDefinition } from 'ajv/dist/2020.js';
import { JsonDecimal } from '../json/lossless.js';

export const JSON_OBJECT_KEYWORD = 'jsonObject';

export const jsonObjectKeyword: KeywordDefinition = {
  keyword: JSON_OBJECT_KEYWORD,
  schemaType: 'boolean',
  validate: (enabled: boolean, data: unknown) => !enabled || !(data instanceof JsonDecimal),
  errors: false,
};

function declaresObject(type: unknown): boolean {
  return type === 'object' || (Array.isArray(type) && type.includes('object'));
}

/** A copy of `schema` with `jsonObject: true` beside every `type` that allows an object. */
export function withJsonObjectChecks(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withJsonObjectChecks);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    // `const`, `enum` and `default` hold data, not subschemas.
    out[key] = key === 'const' || key === 'enum' || key === 'default' ? value : withJsonObjectChecks(value);
  }
  if (declaresObject(out.type)) out[JSON_OBJECT_KEYWORD] = true;
  return out;
}
