// The svc-certify command line. Only commander is loaded up front so that `--help` starts fast;
// each command imports its (heavy) modules inside its action.

import { readFileSync } from 'node:fs';
import { Command, CommanderError } from './commander.js';
import { envOf } from '../config/option-spec.js';
import { createRedactor } from '../config/redact.js';
import { resolveOptions } from '../config/resolve-options.js';
import { learnedSecrets, secretsOfArgs } from '../config/secret-options.js';
import { unknownEnvWarnings } from '../config/unknown-env.js';
import { terminalSafe } from '../report/terminal-safe.js';
import { addOptions as addAllOptions } from './add-options.js';
import { registerOpenapiCommand } from './openapi-command.js';
import {
  BASELINE_OPTIONS,
  COMMAND_OPTIONS,
  LIST_OPTIONS,
  OTHER_VARIABLES,
  optionsOfCommand,
} from './command-options.js';
import {
  BASELINE_EXAMPLES,
  LIST_EXAMPLES,
  PARTNER_EXAMPLES,
  PROGRAM_EXAMPLES,
  RECEIVER_EXAMPLES,
  REPORT_EXAMPLES,
  RUN_EXAMPLES,
  SCAN_EXAMPLES,
  SERVE_EXAMPLES,
} from './help-text.js';

/** Known error classes map to exit 2 with one line; compared by name so they load lazily. */
const USER_ERRORS = new Set([
  'ConfigError',
  'UsageError',
  'TargetUnreachableError',
  'NotThisApiError',
  'ReceiverUnreachableError',
  'RegistryError',
]);

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
 * secrets are those the option table of the command that ran marks `secret`, given as a flag or as
 * its environment variable, and those the session learned (rememberSecrets), in every form the redactor knows (plain, escaped, percent-encoded,
 * base64, any case).
 */
/** An error message on stderr is one line; a longer one is cut (the reports hold the evidence). */
const MAX_MESSAGE_CHARS = 2_000;

export function scrub(
  message: string,
  argv: readonly string[] = process.argv,
  env: NodeJS.ProcessEnv = process.env,
): string {
  try {
    const secrets = [...secretsOfArgs(optionsOfCommand(argv[2]), argv, env), ...learnedSecrets()];
    const line = createRedactor(secrets.filter((x) => x.value.length >= 4))
      .text(message)
      .replace(/\s*\n\s*/g, ' ');
    // A message quoting a target's text is neither a terminal command nor a flood of the log.
    const safe = terminalSafe(line);
    return safe.length > MAX_MESSAGE_CHARS ? `${safe.slice(0, MAX_MESSAGE_CHARS)}… (cut)` : safe;
  } catch {
    // The last resort must not throw: a message that cannot be redacted is not shown.
    return '(the message could not be redacted, so it is not shown)';
  }
}

/** Every SVC_* variable svc-certify reads: each option's, of every command, and the CLI's own. */
export function knownEnvVars(): string[] {
  const names = Object.values(COMMAND_OPTIONS).flatMap((specs) => specs.map(envOf));
  return [...new Set([...names, ...OTHER_VARIABLES.map((v) => v.name)])].sort();
}

/**
 * The command a command line runs (`svc-certify help X` runs X's help), or undefined when none is named:
 * only that command's options are built, so `--help` and a command's start do not pay for the others'.
 */
export function commandOf(argv: readonly string[]): string | undefined {
  const first = argv[2];
  if (first === undefined || first.startsWith('-')) return undefined;
  return first === 'help' ? argv[3] : first;
}

export function buildProgram(
  setCode: (code: number) => void,
  out: (line: string) => void,
  /** Build only this command's options (the others keep their name and description); all when undefined. */
  only?: string,
): Command {
  const program = new Command('svc-certify');
  const addOptions: typeof addAllOptions = (command, specs) =>
    only === undefined || command.name() === only ? addAllOptions(command, specs) : command;
  program
    .description('Certifies an HTTP deployment of the Partner Candidate-Matching API v1 before it goes live')
    .version(version(), '-V, --version')
    .addHelpText('after', PROGRAM_EXAMPLES)
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      // commander echoes what it could not parse (`unknown option '--webhok-secret=…'`): scrubbed too.
      outputError: (str, write) => write(`svc-certify: ${scrub(str.replace(/^error: /, '').trim())}\n`),
    });

  const run = program.command('run');
  run.description('certify a target (default: the embedded reference sandbox) and write reports');
  addOptions(run, COMMAND_OPTIONS.run)
    .addHelpText('after', RUN_EXAMPLES)
    .action(async (opts: Record<string, unknown>) => {
      const { runCommand } = await import('./run-command.js');
      setCode(await runCommand(opts));
    });

  addOptions(
    program
      .command('receiver')
      .description(
        "certify a partner's webhook endpoint: signed deliveries it must acknowledge, bad signatures it must refuse with 401",
      ),
    COMMAND_OPTIONS.receiver,
  )
    .addHelpText('after', RECEIVER_EXAMPLES)
    .action(async (opts: Record<string, unknown>) => {
      const { receiverCommand } = await import('./receiver-command.js');
      setCode(await receiverCommand(opts));
    });

  addOptions(
    program
      .command('scan')
      .description('search built frontend files, source maps and HAR files for the strings spk_ and sot_')
      .argument('[paths...]', 'files or folders (recursively)'),
    COMMAND_OPTIONS.scan,
  )
    .addHelpText('after', SCAN_EXAMPLES)
    .action(async (paths: string[], opts: Record<string, unknown>) => {
      const { scanCommand } = await import('./scan-command.js');
      setCode(await scanCommand(paths, opts));
    });

  addOptions(
    program
      .command('list')
      .description('list the checks of every command (run, partner, receiver, scan) with their ids and spec sections'),
    LIST_OPTIONS,
  )
    .addHelpText('after', LIST_EXAMPLES)
    .action(async (flags: Record<string, unknown>) => {
      const o = resolveOptions(LIST_OPTIONS, { flags, env: process.env });
      const { listCommand } = await import('./list-command.js');
      setCode(
        listCommand(
          {
            suite: o.get('suite'),
            grep: o.get('grep'),
            bySpec: o.get('bySpec'),
            json: o.get('json'),
            command: o.get('command'),
          },
          out,
        ),
      );
    });

  const serve = program.command('serve').description('run the reference sandbox locally until Ctrl-C');
  addOptions(serve, COMMAND_OPTIONS.serve)
    .addHelpText('after', SERVE_EXAMPLES)
    .action(async (opts: Record<string, unknown>) => {
      const { serveCommand } = await import('./serve-command.js');
      setCode(await serveCommand(opts, out));
    });

  addOptions(
    program
      .command('report')
      .description('one set of reports from the results.json of one or several certifications (a dossier)')
      .argument('<results.json...>', 'results.json files of run, partner, receiver or scan (or an earlier dossier)'),
    COMMAND_OPTIONS.report,
  )
    .addHelpText('after', REPORT_EXAMPLES)
    .action(async (files: string[], opts: Record<string, unknown>) => {
      const { reportCommand } = await import('./report-command.js');
      setCode(await reportCommand(files, opts));
    });

  addOptions(
    program
      .command('baseline')
      .description('print a baseline accepting every failure of a run (for --baseline)')
      .argument('<results.json>', 'the results.json of a run'),
    BASELINE_OPTIONS,
  )
    .addHelpText('after', BASELINE_EXAMPLES)
    .action(async (file: string, flags: Record<string, unknown>) => {
      const o = resolveOptions(BASELINE_OPTIONS, { flags, env: process.env });
      const { baselineCommand } = await import('./baseline-command.js');
      const until = o.get('until');
      setCode(
        baselineCommand(file, until === undefined ? {} : { until, untilSource: o.source('until') ?? '--until' }, out),
      );
    });

  const partner = program
    .command('partner')
    .description(
      "certify a partner's client: the sandbox as serve runs it, recording and judging the partner's traffic",
    );
  addOptions(partner, COMMAND_OPTIONS.partner)
    .addHelpText('after', PARTNER_EXAMPLES)
    .action(async (opts: Record<string, unknown>) => {
      const { partnerCommand } = await import('./partner-command.js');
      setCode(await partnerCommand(opts, out));
    });
  registerOpenapiCommand(program, out);

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
  const program = buildProgram((c) => (code = c), out, commandOf(argv));
  try {
    // A bare `svc-certify` shows the help rather than doing something surprising, and exits 2: no
    // command ran, and a CI step that forgot its command must not pass.
    if (argv.length <= 2) {
      program.outputHelp({ error: true });
      process.stderr.write('svc-certify: no command given; choose one of the commands above (e.g. svc-certify run)\n');
      return 2;
    }
    // Other tools may own the prefix, so an unknown SVC_* variable is a warning, never an error.
    for (const line of unknownEnvWarnings(process.env, knownEnvVars())) process.stderr.write(`${scrub(line)}\n`);
    await program.parseAsync(argv);
    if (code === 130 || code === 143) {
      // Interrupted: the reports are written; a socket or timer left behind by an aborted check must
      // not keep the process alive past them.
      setTimeout(() => process.exit(code), 2_000).unref();
    }
    return code;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help')
        return 0;
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
