// Runs tasks under a concurrency cap, in the order given (the caller puts the longest first so
// the critical path, e.g. cert-slow's 3 minutes, starts at t=0).

export async function runConcurrently<T>(
  items: readonly T[],
  limit: number,
  run: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++]!;
      await run(item);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}
