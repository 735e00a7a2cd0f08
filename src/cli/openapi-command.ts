// `svc-certify openapi`: prints the OpenAPI 3.1 description of v1 (src/openapi/). Registered from
// main.ts by one call; the builder loads inside the action so --help stays fast.

import type { Command } from 'commander';
import { resolveOptions } from '../config/resolve-options.js';
import { addOptions } from './add-options.js';
import { OPENAPI_OPTIONS } from './command-options.js';

const OPENAPI_EXAMPLES = `
Examples:
  # the description as YAML, for openapi-generator, Prism or a Postman import
  $ svc-certify openapi > partner-api-v1.yaml

  # as JSON
  $ svc-certify openapi --format json > partner-api-v1.json
`;

export function registerOpenapiCommand(program: Command, out: (text: string) => void): void {
  const command = program
    .command('openapi')
    .description(
      'print the OpenAPI 3.1 description of v1 (built from the schemas the checks use), sandbox-only parts marked',
    );
  addOptions(command, OPENAPI_OPTIONS)
    .addHelpText('after', OPENAPI_EXAMPLES)
    .action(async (flags: Record<string, unknown>) => {
      const format = resolveOptions(OPENAPI_OPTIONS, { flags, env: process.env }).get('format');
      const { renderOpenApi } = await import('../openapi/render-openapi.js');
      out(renderOpenApi(format).replace(/\n$/, ''));
    });
}
