// The svc-certify command line. Only commander is loaded up front so that `--help` starts fast;
// each command imports its (heavy) modules inside its action.

import { Command, CommanderError, Option } from 'commander';
import { readFileSync } from 'node:fs';
import { addReportOptions } from './report-options.js';
import { BASELINE_EXAMPLES, LIST_EXAMPLES, PARTNER_EXAMPLES, PROGRAM_EXAMPLES, RECEIVER_EXAMPLES, REPORT_EXAMPLES, RUN_EXAMPLES, SCAN_EXAMPLES, SERVE_EXAMPLES } from './help-text.js';

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/** Known error classes map to exit 2 with one line; compared by name so they load lazily. */
const USER_ERRORS = new Set(['ConfigError', 'UsageError', 'TargetUnreachableError', 'RegistryError']);

function version(): string {
  // dist/src/cli/main.js and src/cli/main.ts both sit below the package root.
  for (const rel of ['../../../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'svc-certify' && pkg.version) return pkg.version;
    } catch {
      // try the next candidate
    }
  }
  return '0.0.0';
}

/** Last-resort scrub for messages of unexpected errors: nothing secret-shaped reaches stderr. */
function scrub(message: string): string {
  let out = message.replace(/(spk_live_|sot_)[0-9a-fA-F]{8,}/g, (m) => `${m.slice(0, 12)}…`);
  const secret = process.env.SVC_WEBHOOK_SECRET;
  if (secret && secret.length >= 4) out = out.split(secret).join(`${secret.slice(0, Math.min(12, secret.length >> 1))}…`);
  return out.replace(/\s*\n\s*/g, ' ');
}

export function buildProgram(setCode: (code: number) => void, out: (line: string) => void): Command {
  const program = new Command('svc-certify');
  program
    .description('Certifies an HTTP deployment of the Partner Candidate-Matching API v1 before it goes live')
    .version(version(), '-V, --version')
    .addHelpText('after', PROGRAM_EXAMPLES)
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      outputError: (str, write) => write(`svc-certify: ${str.replace(/^error: /, '').trim()}\n`),
    });

  const run = program.command('run');
  run
    .description('certify a target (default: the embedded reference sandbox) and write reports')
    .option('--base-url <url>', 'target ending in /v1 [SVC_BASE_URL]; omitted: the embedded sandbox')
    .option('--partner-key <key>', 'partner key spk_live_… [SVC_PARTNER_KEY]')
    .option('--org-token <token>', 'an organization already connected, sot_… [SVC_ORG_TOKEN]')
    .option('--activation-code <code>', 'an unused activation code, repeatable; 3 run every check (2 with --org-token), --exhaust-limits takes one more [SVC_ACTIVATION_CODES, comma-separated]', collect)
    .option('--expired-code <code>', 'an expired activation code [SVC_EXPIRED_CODE]')
    .option('--disabled-org-token <token>', 'org token of a disabled organization [SVC_DISABLED_ORG_TOKEN]')
    .option('--disabled-partner-key <key>', 'key of a disabled partner [SVC_DISABLED_PARTNER_KEY]')
    .option('--webhook-secret <secret>', 'webhook signing secret [SVC_WEBHOOK_SECRET]')
    .option('--webhook-listen <host:port>', 'where the temporary receiver listens [SVC_WEBHOOK_LISTEN]')
    .option('--webhook-public-url <url>', 'the registered URL that reaches the receiver [SVC_WEBHOOK_PUBLIC_URL]')
    .option('--webhook-tls-cert <file>', 'serve the receiver over TLS: certificate (PEM)')
    .option('--webhook-tls-key <file>', 'serve the receiver over TLS: private key (PEM)')
    .option('--environment <env>', 'sandbox, production or auto (judged from the behaviour and x-svc-environment) [SVC_ENVIRONMENT]')
    .option('--max-spend-credits <n>', 'production: credits reveals may spend, default 0 [SVC_MAX_SPEND_CREDITS]')
    .option('--time-scale <n>', "divide the spec's waiting times by n; default 1, 60 for the embedded sandbox [SVC_TIME_SCALE]")
    .option('--rate-limit <n>', 'requests per minute the partner may send, default 120 [SVC_RATE_LIMIT]')
    .option('--suite <name>', 'run only this suite, repeatable or comma-separated (see: svc-certify list)', collect)
    .option('--grep <text>', 'run only checks whose id or title contains the text')
    .option('--exhaust-limits', "also use up the rate limit and the daily sandbox run quota")
    .option('--user-role <role>', 'the role sent when registering recruiters (allowed values: not shown in the spec) [SVC_USER_ROLE]')
    .option('--webhook-not-registered', 'no webhook URL is registered for the partner: check 409 webhook_not_configured');
  addReportOptions(run)
    .addHelpText('after', RUN_EXAMPLES)
    .action(async (opts: Record<string, unknown>) => {
      const { runCommand } = await import('./run-command.js');
      setCode(await runCommand(opts));
    });

  addReportOptions(
    program
      .command('receiver')
      .description("certify a partner's webhook endpoint: signed deliveries it must acknowledge, bad signatures it must refuse with 401")
      .option('--url <url>', 'the endpoint, https:// on a public host (as the service delivers)')
      .option('--webhook-secret <secret>', 'webhook signing secret [SVC_WEBHOOK_SECRET]')
      .option('--allow-private', 'allow http:// and private or loopback hosts (local testing)')
      .option('--insecure', 'accept a self-signed TLS certificate (staging)'),
  )
    .addHelpText('after', RECEIVER_EXAMPLES)
    .action(async (opts: Record<string, unknown>) => {
      const { receiverCommand } = await import('./receiver-command.js');
      setCode(await receiverCommand(opts));
    });

  addReportOptions(
    program
      .command('scan')
      .description('search built frontend files, source maps and HAR files for the strings spk_ and sot_')
      .argument('[paths...]', 'files or folders (recursively)'),
  )
    .addHelpText('after', SCAN_EXAMPLES)
    .action(async (paths: string[], opts: Record<string, unknown>) => {
      const { scanCommand } = await import('./scan-command.js');
      setCode(await scanCommand(paths, opts));
    });

  program
    .command('list')
    .description('list the checks with their ids and spec sections')
    .option('--suite <name>', 'only this suite (repeatable)', collect)
    .option('--grep <text>', 'only checks whose id or title contains the text')
    .option('--by-spec', 'traceability matrix: every spec section and the checks citing it')
    .addHelpText('after', LIST_EXAMPLES)
    .action(async (opts: { suite?: string[]; grep?: string; bySpec?: boolean }) => {
      const { listCommand } = await import('./list-command.js');
      setCode(listCommand(opts, out));
    });

  program
    .command('serve')
    .description('run the reference sandbox locally until Ctrl-C')
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--port <n>', 'port (0: any free port)', '0')
    .addOption(new Option('--mode <mode>', 'sandbox or production').default('sandbox'))
    .option('--time-scale <n>', "divide the spec's durations by n", '1')
    .option('--rate-limit <n>', 'requests per minute per partner', '120')
    .option('--provision <file>', 'provision a partner and write its credentials as JSON here')
    .option('--webhook-url <url>', "register this webhook URL for the provisioned partner")
    .option('--allow-loopback-webhooks', 'operator switch: allow http://127.0.0.1 webhook URLs')
    .option('--fault <id>', 'switch on a named fault (repeatable; see --list-faults)', collect)
    .option('--list-faults', 'print the faults the sandbox knows and exit')
    .option('--variant <id>', 'switch on a conformant variant: a choice the spec leaves open (repeatable; see --list-variants)', collect)
    .option('--list-variants', 'print the conformant variants the sandbox knows and exit')
    .addHelpText('after', SERVE_EXAMPLES)
    .action(async (opts: Record<string, unknown>) => {
      const { serveCommand } = await import('./serve-command.js');
      setCode(await serveCommand(opts, out));
    });

  addReportOptions(
    program
      .command('report')
      .description('one set of reports from the results.json of one or several certifications (a dossier)')
      .argument('<results.json...>', 'results.json files of run, partner, receiver or scan (or an earlier dossier)'),
  )
    .addHelpText('after', REPORT_EXAMPLES)
    .action(async (files: string[], opts: Record<string, unknown>) => {
      const { reportCommand } = await import('./report-command.js');
      setCode(await reportCommand(files, opts));
    });

  program
    .command('baseline')
    .description("print a baseline accepting every failure of a run (for --baseline)")
    .argument('<results.json>', 'the results.json of a run')
    .option('--until <date>', 'YYYY-MM-DD, the last day the entries are honoured (default: 30 days from today)')
    .addHelpText('after', BASELINE_EXAMPLES)
    .action(async (file: string, opts: { until?: string }) => {
      const { baselineCommand } = await import('./baseline-command.js');
      setCode(baselineCommand(file, opts, out));
    });

  const partner = program
    .command('partner')
    .description("certify a partner's client: the sandbox as serve runs it, recording and judging the partner's traffic")
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--port <n>', 'port (0: any free port)', '0')
    .addOption(new Option('--mode <mode>', 'sandbox or production').default('sandbox'))
    .option('--time-scale <n>', "divide the spec's durations by n (the judge's too)", '1')
    .option('--rate-limit <n>', 'requests per minute per partner', '120')
    .option('--provision <file>', "required: write the partner's credentials as JSON here")
    .option('--webhook-url <url>', "register the partner's webhook endpoint (judges its answers)")
    .option('--allow-loopback-webhooks', 'operator switch: allow http://127.0.0.1 webhook URLs')
    .option('--duration <time>', 'end after this long (e.g. 90s, 15m); default: until Ctrl-C / SIGTERM')
    .option('--no-inject', 'do not inject the failures listed below')
    .addHelpText('after', PARTNER_EXAMPLES)
    .action(async (opts: Record<string, unknown>) => {
      const { partnerCommand } = await import('./partner-command.js');
      setCode(await partnerCommand(opts, out));
    });
  addReportOptions(partner);

  return program;
}

export async function main(argv: string[]): Promise<number> {
  let code = 0;
  const out = (line: string): void => {
    process.stdout.write(`${line}\n`);
  };
  // `svc-certify list | head` closes the pipe early: that is the reader's choice, not an error.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(code);
  });
  const program = buildProgram((c) => (code = c), out);
  try {
    // A bare `svc-certify` shows the help rather than doing something surprising.
    if (argv.length <= 2) {
      program.outputHelp();
      return 0;
    }
    await program.parseAsync(argv);
    return code;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return 0;
      return 2;
    }
    const err = e instanceof Error ? e : new Error(String(e));
    if (USER_ERRORS.has(err.name)) {
      process.stderr.write(`svc-certify: ${scrub(err.message)}\n`);
      return 2;
    }
    process.stderr.write(`svc-certify: internal error: ${scrub(err.message)} (set SVC_DEBUG=1 for details)\n`);
    if (process.env.SVC_DEBUG) process.stderr.write(`${scrub(err.stack ?? '')}\n`);
    return 2;
  }
}
