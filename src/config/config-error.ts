// A configuration problem the user can fix. The CLI prints `svc-certify: <message>` and exits 2,
// so the message names the option and says how to fix it, in one line.
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(message: string) {
    super(message);
  }
}
