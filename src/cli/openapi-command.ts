// `svc-certify openapi`: prints the OpenAPI 3.1 description of v1 (src/openapi/). Registered from
// main.ts by one call; the builder loads inside the action so --help stays fast.

import { Option, type Command } from 'commander';

const OPENAPI_EXAMPLES = `
Examples:
  # the description as YAML, for openapi-generator, Prism or a Postman import
  $ svc-certify openapi > partner-api-v1.yaml

  # as JSON
  $ svc-certify openapi --format json > partner-api-v1.json
`;

export function registerOpenapiCommand(program: Command, out: (text: string) => void): void {
  program
    .command('openapi')
    .description('print the OpenAPI 3.1 description of v1 (built from the schemas the checks use), sandbox-only parts marked')
    .addOption(new Option('--format <format>', 'output format').choices(['yaml', 'json']).default('yaml'))
    .addHelpText('after', OPENAPI_EXAMPLES)
    .action(async (opts: { format: 'yaml' | 'json' }) => {
      const { renderOpenApi } = await import('../openapi/render-openapi.js');
      out(renderOpenApi(opts.format).replace(/\n$/, ''));
    });
}
