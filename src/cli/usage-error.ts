// A wrong command line that is not about `run`'s configuration (serve's flags, say): exit 2 with
// one line, like a ConfigError.
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
