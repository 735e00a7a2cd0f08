// The description as text in either format the command prints. Both are the same document: JSON with
// two-space indentation, or YAML from the emitter of yaml-emit.ts.

import { buildOpenApi } from './build-openapi.js';
import { toYaml } from './yaml-emit.js';

const OPENAPI_FORMATS = ['yaml', 'json'] as const;
export type OpenApiFormat = (typeof OPENAPI_FORMATS)[number];

export function renderOpenApi(format: OpenApiFormat): string {
  const doc = buildOpenApi();
  return format === 'json' ? `${JSON.stringify(doc, null, 2)}\n` : toYaml(doc);
}
