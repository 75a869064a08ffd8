/**
 * Calls `visit` on every item, `perTurn` at a time, yielding to the event loop between slices. Work
 * over every socket of an instance would otherwise hold every request up for its whole length: a
 * protocol ping is a write system call, ~10 µs: 100 ms at 10,000 sockets (the capacity bench's
 * loop stalls, issue 17).
 */
export function inTurns<T>(items: readonly T[], perTurn: number, visit: (item: T) => void): Promise<void> {
  return new Promise((resolve) => {
    const slice = (from: number): void => {
      const to = Math.min(items.length, from + perTurn);
      for (let i = from; i < to; i += 1) visit(items[i]!);
      if (to < items.length) setImmediate(slice, to);
      else resolve();
    };
    slice(0);
  });
}
