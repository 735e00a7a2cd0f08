// Narrowing without casts, for values TypeScript cannot see through: a caught value (`catch (e)` is
// `unknown`) and a string that may be one of a constant list. A leaf any layer of the certifier may use,
// like package-root.ts (the sandbox keeps its own copies in src/sandbox/must.ts: it imports nothing here).

/** Whether `value` is one of `list` (a constant tuple of names), narrowing it to the tuple's union. */
export function isOneOf<T extends string>(list: readonly T[], value: string): value is T {
  return list.some((item) => item === value);
}

/** The errno code (ENOENT, EACCES…) of a failed system call, or undefined. */
export function errnoCode(e: unknown): string | undefined {
  return e instanceof Error && 'code' in e && typeof e.code === 'string' ? e.code : undefined;
}

/** The message of a thrown value (an Error's message, anything else as text). */
export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** What a one-line error shows of a failed system call: its errno code, else its message. */
export function errnoOrMessage(e: unknown): string {
  return errnoCode(e) ?? errorMessage(e);
}
