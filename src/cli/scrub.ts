// The last-resort scrub of an error message before it reaches stderr: nothing secret-shaped gets
// through. Loaded only when there is a message to scrub, so that `--help` does not pay for the redactor.

import { createRedactor } from '../config/redact.js';
import { learnedSecrets, secretsOfArgs } from '../config/secret-options.js';
import { terminalSafe } from '../report/terminal-safe.js';
import { optionsOfCommand } from './command-options.js';

/** An error message on stderr is one line; a longer one is cut (the reports hold the evidence). */
const MAX_MESSAGE_CHARS = 2_000;

/**
 * The secrets are those the option table of the command that ran marks `secret`, given as a flag or as
 * its environment variable, and those the session learned (rememberSecrets), in every form the redactor
 * knows (plain, escaped, percent-encoded, base64, any case).
 */
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
