// The svc-certify command line. Only commander is loaded up front so that `--help` starts fast;
// each command imports its (heavy) modules inside its action.

import { Command, CommanderError } from 'commander';
import { readFileSync } from 'node:fs';
import { RUN_OPTIONS } from '../config/run-options.js';
import { createRedactor, type NamedSecret } from '../config/redact.js';
import { addOptions } from './add-options.js';
import { addReportOptions } from './report-options.js';
import { RECEIVER_OPTIONS } from './receiver-options.js';
import { PARTNER_OPTIONS, SANDBOX_OPTIONS, SERVE_ONLY_OPTIONS } from './sandbox-options.js';
import { BASELINE_EXAMPLES, LIST_EXAMPLES, PARTNER_EXAMPLES, PROGRAM_EXAMPLES, RECEIVER_EXAMPLES, REPORT_EXAMPLES, RUN_EXAMPLES, SCAN_EXAMPLES, SERVE_EXAMPLES } from './help-text.js';

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/** Known error classes map to exit 2 with one line; compared by name so they load lazily. */
const USER_ERRORS = new Set(['ConfigError', 'UsageError', 'TargetUnreachableError', 'NotThisApiError', 'ReceiverUnreachableError', 'RegistryError']);

function version(): string {
  // dist/src/cli/main.js and src/cli/main.ts both sit below the package root.
  for (const rel of ['../../../package.json', '../../package.json']) {
    try {
      const pkg: { name?: string; version?: string } = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8'));
      if (pkg.name === 'svc-certify' && pkg.version) return pkg.version;
    } catch {
      // try the next candidate
    }
  }
  return '0.0.0';
}

/**
 * Last-resort scrub for messages of unexpected errors: nothing secret-shaped reaches stderr. The
 * secrets are those the option table marks `secret`, given as a flag or as its environment variable,
 * in every form the redactor knows (plain, escaped, percent-encoded, base64, any case).
 */
function scrub(message: string, argv: readonly string[] = process.argv): string {
  const secrets: NamedSecret[] = [];
  for (const o of RUN_OPTIONS.filter((x) => x.secret)) {
    const fromEnv = o.env ? process.env[o.env] : undefined;
    if (fromEnv) secrets.push({ value: fromEnv, envVar: o.env! });
    argv.forEach((arg, i) => {
      if (arg === o.flag && argv[i + 1] !== undefined) secrets.push({ value: argv[i + 1]!, envVar: o.env ?? 'SECRET' });
      else if (arg.startsWith(`${o.flag}=`)) secrets.push({ value: arg.slice(o.flag.length + 1), envVar: o.env ?? 'SECRET' });
    });
  }
  return createRedactor(secrets.filter((x) => x.value.length >= 4)).text(message).replace(/\s*\n\s*/g, ' ');
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
  run.description('certify a target (default: the embedded reference sandbox) and write reports');
  addOptions(run, RUN_OPTIONS)
    .addHelpText('after', RUN_EXAMPLES)
    .action(async (opts: Record<string, unknown>) => {
      const { runCommand } = await import('./run-command.js');
      setCode(await runCommand(opts));
    });

  addReportOptions(
    addOptions(
      program
        .command('receiver')
        .description("certify a partner's webhook endpoint: signed deliveries it must acknowledge, bad signatures it must refuse with 401"),
      RECEIVER_OPTIONS,
    ),
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

  const serve = program.command('serve').description('run the reference sandbox locally until Ctrl-C');
  addOptions(serve, [...SANDBOX_OPTIONS, ...SERVE_ONLY_OPTIONS])
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
    .description("certify a partner's client: the sandbox as serve runs it, recording and judging the partner's traffic");
  addOptions(partner, PARTNER_OPTIONS)
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
    // A bare `svc-certify` shows the help rather than doing something surprising, and exits 2: no
    // command ran, and a CI step that forgot its command must not pass.
    if (argv.length <= 2) {
      program.outputHelp({ error: true });
      process.stderr.write('svc-certify: no command given; choose one of the commands above (e.g. svc-certify run)\n');
      return 2;
    }
    await program.parseAsync(argv);
    if (code === 130 || code === 143) {
      // Interrupted: the reports are written; a socket or timer left behind by an aborted check must
      // not keep the process alive past them.
      setTimeout(() => process.exit(code), 2_000).unref();
    }
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
