// The sandbox's answer to an index that cannot miss (its own constant tables, a regex group that
// matched): the value, or an error naming the broken invariant. The server turns a thrown error into
// a 500 internal_error, so a broken table shows as a loud failure, never as a silent `undefined`.
// The sandbox imports nothing from the certifier, so it keeps its own copy of this helper.

export function must<T>(value: T | undefined, why: string): T {
  if (value === undefined) throw new Error(`sandbox invariant broken: ${why}`);
  return value;
}

/** The item `i` of a round-robin over a constant, non-empty list. */
export function cyclic<T>(list: ArrayLike<T>, i: number): T {
  return must(list[i % list.length], 'a round-robin over an empty list');
}

/** Whether `value` is one of `list` (a constant tuple of names), narrowing it to the tuple's union. */
export function isOneOf<T extends string>(list: readonly T[], value: string): value is T {
  return list.some((item) => item === value);
}
