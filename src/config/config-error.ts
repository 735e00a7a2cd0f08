// A configuration problem the user can fix. The CLI prints `svc-certify: <message>` and exits 2,
// so the message names the option and says how to fix it, in one line.
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(message: string) {
    super(message);
  }
}

/** The errno code of a failed system call (ENOENT, EACCES…), if it is one. */
export function errnoOf(e: unknown): string | undefined {
  return e instanceof Error && 'code' in e && typeof e.code === 'string' ? e.code : undefined;
}

export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
