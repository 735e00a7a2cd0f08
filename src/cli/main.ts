// The svc-certify command line. Only commander and the help texts are loaded up front so that
// `--help` starts fast: the option tables load for the command that runs (or whose help is asked),
// the redactor when there is an error to scrub, and each command's (heavy) modules inside its action.

import { readFileSync } from 'node:fs';
import { Command, CommanderError } from './commander.js';
import type { OptionSpec } from '../config/option-spec.js';
import { registerOpenapiCommand } from './openapi-command.js';
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
  VERIFY_EXAMPLES,
} from './help-text.js';

/** Known error classes map to exit 2 with one line; compared by name so they load lazily. */
const USER_ERRORS = new Set([
  'ConfigError',
  'UsageError',
  'TargetUnreachableError',
  'NotThisApiError',
  'ReceiverUnreachableError',
  'RegistryError',
  'ReportWriteError',
]);

/**
 * The certifying command that is running, once its options are parsed: an exit 2 from here on writes
 * its report files too (exit-two-reports.ts), so a pipeline's `always` steps have something to show.
 */
interface Certifying {
  certification: 'run' | 'partner' | 'receiver' | 'scan' | 'dossier';
  flags: Record<string, unknown>;
  inputs?: string[];
  startedAt: Date;
}
let certifying: Certifying | undefined;

function startCertifying(c: Omit<Certifying, 'startedAt'>): void {
  certifying = { ...c, startedAt: new Date() };
}

async function writeErrorReports(line: string): Promise<void> {
  if (!certifying) return;
  const { writeExitTwoReports } = await import('./exit-two-reports.js');
  await writeExitTwoReports(certifying, line);
}

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
 * The command a command line runs (`svc-certify help X` runs X's help), or undefined when none is named:
 * only that command's options are built, so `--help` and a command's start do not pay for the others'.
 */
export function commandOf(argv: readonly string[]): string | undefined {
  const first = argv[2];
  if (first === undefined || first.startsWith('-')) return undefined;
  return first === 'help' ? argv[3] : first;
}

/** The options a program declares: the tables by command name (command-options.ts) and how to add one. */
export interface DeclaredOptions {
  tables: Readonly<Record<string, readonly OptionSpec[]>>;
  /** add-options.ts, passed in so that a program declaring no options does not load it. */
  addOptions: (command: Command, specs: readonly OptionSpec[]) => Command;
}

/** The options of the command a command line names, loaded only then; none for a bare `--help`. */
async function optionsOf(command: string | undefined): Promise<DeclaredOptions | undefined> {
  if (command === undefined) return undefined;
  const [{ optionsOfCommand }, { addOptions }] = await Promise.all([
    import('./command-options.js'),
    import('./add-options.js'),
  ]);
  return { tables: { [command]: optionsOfCommand(command) }, addOptions };
}

/** Other tools may own the prefix, so an unknown SVC_* variable is a warning, never an error. */
async function warnUnknownEnv(env: NodeJS.ProcessEnv): Promise<void> {
  // Without any SVC_* variable there is nothing to warn about, and nothing to load.
  if (!Object.keys(env).some((name) => name.startsWith('SVC_'))) return;
  const [{ unknownEnvWarnings, formerEnvWarnings }, { knownEnvVars, renamedEnvVars }, { scrub }] = await Promise.all([
    import('../config/unknown-env.js'),
    import('./command-options.js'),
    import('./scrub.js'),
  ]);
  const lines = [...formerEnvWarnings(env, renamedEnvVars()), ...unknownEnvWarnings(env, knownEnvVars())];
  for (const line of lines) process.stderr.write(`${scrub(line)}\n`);
}

/** What registering a command needs: where its exit code and output go, and how its options are declared. */
interface CommandHost {
  setCode: (code: number) => void;
  out: (line: string) => void;
  declare: (command: Command) => Command;
}

export function buildProgram(
  setCode: (code: number) => void,
  out: (line: string) => void,
  /**
   * The commands whose options are declared (COMMAND_OPTIONS for all); the other commands keep their
   * name and description, so the command list and suggestions are unchanged.
   */
  options: DeclaredOptions | undefined,
  /** Where commander's own error message goes (main scrubs it once the parse has failed). */
  outputError: (message: string) => void = () => {},
): Command {
  const program = new Command('svc-certify');
  const declare = (command: Command): Command => {
    const specs = options?.tables[command.name()];
    return options && specs ? options.addOptions(command, specs) : command;
  };
  const host: CommandHost = { setCode, out, declare };
  configureProgram(program, outputError);
  // In the order `--help` lists them.
  addRunCommand(program, host);
  addReceiverCommand(program, host);
  addScanCommand(program, host);
  addListCommand(program, host);
  addServeCommand(program, host);
  addReportCommand(program, host);
  addBaselineCommand(program, host);
  addVerifyCommand(program, host);
  addPartnerCommand(program, host);
  registerOpenapiCommand(program, out, declare);
  return program;
}

function configureProgram(program: Command, outputError: (message: string) => void): void {
  program
    .description('Certifies an HTTP deployment of the Partner Candidate-Matching API v1 before it goes live')
    .version(version(), '-V, --version')
    .addHelpText('after', PROGRAM_EXAMPLES)
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      // commander echoes what it could not parse (`unknown option '--webhok-secret=…'`): main writes it
      // scrubbed once the parse has thrown, so the redactor loads only when there is such a message.
      outputError: (str) => outputError(str.replace(/^error: /, '').trim()),
    });
}

function addRunCommand(program: Command, { setCode, declare }: CommandHost): void {
  const run = program.command('run');
  run.description('certify a target (default: the embedded reference sandbox) and write reports');
  declare(run)
    .addHelpText('after', RUN_EXAMPLES)
    .action(async (opts: Record<string, unknown>) => {
      startCertifying({ certification: 'run', flags: opts });
      const { runCommand } = await import('./run-command.js');
      setCode(await runCommand(opts));
    });
}

function addReceiverCommand(program: Command, { setCode, declare }: CommandHost): void {
  declare(
    program
      .command('receiver')
      .description(
        "certify a partner's webhook endpoint: signed deliveries it must acknowledge, bad signatures it must refuse with 401",
      ),
  )
    .addHelpText('after', RECEIVER_EXAMPLES)
    .action(async (opts: Record<string, unknown>) => {
      startCertifying({ certification: 'receiver', flags: opts });
      const { receiverCommand } = await import('./receiver-command.js');
      setCode(await receiverCommand(opts));
    });
}

function addScanCommand(program: Command, { setCode, declare }: CommandHost): void {
  declare(
    program
      .command('scan')
      .description('search built frontend files, source maps and HAR files for the strings spk_ and sot_')
      .argument('[paths...]', 'files or folders (recursively)'),
  )
    .addHelpText('after', SCAN_EXAMPLES)
    .action(async (paths: string[], opts: Record<string, unknown>) => {
      startCertifying({ certification: 'scan', flags: opts });
      const { scanCommand } = await import('./scan-command.js');
      setCode(await scanCommand(paths, opts));
    });
}

function addListCommand(program: Command, { setCode, out, declare }: CommandHost): void {
  declare(
    program
      .command('list')
      .description('list the checks of every command (run, partner, receiver, scan) with their ids and spec sections'),
  )
    .addHelpText('after', LIST_EXAMPLES)
    .action(async (flags: Record<string, unknown>) => {
      const [{ resolveOptions }, { LIST_OPTIONS }, { listCommand }] = await Promise.all([
        import('../config/resolve-options.js'),
        import('./command-options.js'),
        import('./list-command.js'),
      ]);
      const o = resolveOptions(LIST_OPTIONS, { flags, env: process.env });
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
}

function addServeCommand(program: Command, { setCode, out, declare }: CommandHost): void {
  const serve = program.command('serve').description('run the reference sandbox locally until Ctrl-C');
  declare(serve)
    .addHelpText('after', SERVE_EXAMPLES)
    .action(async (opts: Record<string, unknown>) => {
      const { serveCommand } = await import('./serve-command.js');
      setCode(await serveCommand(opts, out));
    });
}

function addReportCommand(program: Command, { setCode, declare }: CommandHost): void {
  declare(
    program
      .command('report')
      .description('one set of reports from the results.json of one or several certifications (a dossier)')
      .argument('<results.json...>', 'results.json files of run, partner, receiver or scan (or an earlier dossier)'),
  )
    .addHelpText('after', REPORT_EXAMPLES)
    .action(async (files: string[], opts: Record<string, unknown>) => {
      // The results it reads may sit where its reports go (reports/results.json): never overwritten.
      startCertifying({ certification: 'dossier', flags: opts, inputs: files });
      const { reportCommand } = await import('./report-command.js');
      setCode(await reportCommand(files, opts));
    });
}

function addBaselineCommand(program: Command, { setCode, out, declare }: CommandHost): void {
  declare(
    program
      .command('baseline')
      .description('print a baseline accepting every failure of a run (for --baseline)')
      .argument('<results.json>', 'the results.json of a run'),
  )
    .addHelpText('after', BASELINE_EXAMPLES)
    .action(async (file: string, flags: Record<string, unknown>) => {
      const [{ resolveOptions }, { BASELINE_OPTIONS }, { baselineCommand }] = await Promise.all([
        import('../config/resolve-options.js'),
        import('./command-options.js'),
        import('./baseline-command.js'),
      ]);
      const o = resolveOptions(BASELINE_OPTIONS, { flags, env: process.env });
      const until = o.get('until');
      setCode(
        baselineCommand(file, until === undefined ? {} : { until, untilSource: o.source('until') ?? '--until' }, out),
      );
    });
}

function addVerifyCommand(program: Command, { setCode, out, declare }: CommandHost): void {
  declare(
    program
      .command('verify')
      .description("check a signed certification record (certification.intoto.json) with the signer's public key")
      .argument('<record>', 'certification.intoto.json written by --sign-key'),
  )
    .addHelpText('after', VERIFY_EXAMPLES)
    .action(async (record: string, flags: Record<string, unknown>) => {
      const [{ resolveOptions }, { VERIFY_OPTIONS }, { verifyCommand }] = await Promise.all([
        import('../config/resolve-options.js'),
        import('./command-options.js'),
        import('./verify-command.js'),
      ]);
      const o = resolveOptions(VERIFY_OPTIONS, { flags, env: process.env });
      setCode(verifyCommand(record, { key: o.get('key'), results: o.get('results') }, out));
    });
}

function addPartnerCommand(program: Command, { setCode, out, declare }: CommandHost): void {
  const partner = program
    .command('partner')
    .description(
      "certify a partner's client: the sandbox as serve runs it, recording and judging the partner's traffic",
    );
  declare(partner)
    .addHelpText('after', PARTNER_EXAMPLES)
    .action(async (opts: Record<string, unknown>) => {
      startCertifying({ certification: 'partner', flags: opts });
      const { partnerCommand } = await import('./partner-command.js');
      setCode(await partnerCommand(opts, out));
    });
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
  // commander's messages about a refused command line, written scrubbed once the parse has thrown.
  const refused: string[] = [];
  const program = buildProgram(
    (c) => (code = c),
    out,
    await optionsOf(commandOf(argv)),
    (message) => refused.push(message),
  );
  const scrubbed = async (message: string): Promise<string> => (await import('./scrub.js')).scrub(message);
  try {
    // A bare `svc-certify` shows the help rather than doing something surprising, and exits 2: no
    // command ran, and a CI step that forgot its command must not pass.
    if (argv.length <= 2) {
      program.outputHelp({ error: true });
      process.stderr.write('svc-certify: no command given; choose one of the commands above (e.g. svc-certify run)\n');
      return 2;
    }
    await warnUnknownEnv(process.env);
    await program.parseAsync(argv);
    if (code === 130 || code === 143) {
      // Interrupted: the reports are written; a socket or timer left behind by an aborted check must
      // not keep the process alive past them.
      setTimeout(() => process.exit(code), 2_000).unref();
    }
    return code;
  } catch (e) {
    if (e instanceof CommanderError) {
      for (const message of refused) process.stderr.write(`svc-certify: ${await scrubbed(message)}\n`);
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help')
        return 0;
      return 2;
    }
    const err = e instanceof Error ? e : new Error(String(e));
    if (USER_ERRORS.has(err.name)) {
      const line = await scrubbed(err.message);
      process.stderr.write(`svc-certify: ${line}\n`);
      await writeErrorReports(line);
      return 2;
    }
    const line = `internal error: ${await scrubbed(err.message)}`;
    process.stderr.write(`svc-certify: ${line} (set SVC_DEBUG=1 for details)\n`);
    await writeErrorReports(line);
    if (process.env.SVC_DEBUG) process.stderr.write(`${await scrubbed(err.stack ?? '')}\n`);
    return 2;
  }
}
