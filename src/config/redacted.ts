// A value that has been through a Redactor's `value()`: reporters and the results writers accept
// nothing else, so a result that skipped redaction does not compile on its way to a file.

declare const redactedBrand: unique symbol;

/** `T` with every string redacted by `Redactor.value` (or rearranged from such a value, see reshapeRedacted). */
export type Redacted<T> = T & { readonly [redactedBrand]: true };

/** Only the redactor calls this: the brand is a claim about what its deep copy holds. */
export function markRedacted<T>(value: T): Redacted<T> {
  return value as Redacted<T>;
}

/**
 * A redacted value rearranged: `reshape` may move, drop or cut its parts and add the tool's own facts
 * (a verdict, a cap's size and digest), never text from outside the redacted value.
 */
export function reshapeRedacted<T, U>(value: Redacted<T>, reshape: (value: T) => U): Redacted<U> {
  return reshape(value) as Redacted<U>;
}

/** A redacted value taken apart (a dossier into its parts), under the same rule as reshapeRedacted. */
export function splitRedacted<T, U>(value: Redacted<T>, split: (value: T) => readonly U[]): Redacted<U>[] {
  return split(value) as Redacted<U>[];
}

/** Redacted values put together (a dossier of results read back), under the same rule as reshapeRedacted. */
export function composeRedacted<T, U>(parts: readonly Redacted<T>[], compose: (parts: readonly T[]) => U): Redacted<U> {
  return compose(parts) as Redacted<U>;
}
