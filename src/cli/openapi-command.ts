// `svc-certify openapi`: prints the OpenAPI 3.1 description of v1 (src/openapi/). Registered from
// main.ts by one call; its options and the builder load inside the action so --help stays fast.

import type { Command } from 'commander';

const OPENAPI_EXAMPLES = `
Examples:
  # the description as YAML, for openapi-generator, Prism or a Postman import
  $ svc-certify openapi > partner-api-v1.yaml

  # as JSON
  $ svc-certify openapi --format json > partner-api-v1.json
`;

export function registerOpenapiCommand(
  program: Command,
  out: (text: string) => void,
  /** Declares the command's options when its table is loaded (main.ts loads only the running command's). */
  declare: (command: Command) => Command,
): void {
  const command = program
    .command('openapi')
    .description(
      'print the OpenAPI 3.1 description of v1 (built from the schemas the checks use), sandbox-only parts marked',
    );
  declare(command)
    .addHelpText('after', OPENAPI_EXAMPLES)
    .action(async (flags: Record<string, unknown>) => {
      const [{ resolveOptions }, { OPENAPI_OPTIONS }, { renderOpenApi }] = await Promise.all([
        import('../config/resolve-options.js'),
        import('./command-options.js'),
        import('../openapi/render-openapi.js'),
      ]);
      const format = resolveOptions(OPENAPI_OPTIONS, { flags, env: process.env }).get('format');
      out(renderOpenApi(format).replace(/\n$/, ''));
    });
}
