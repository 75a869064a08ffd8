import { WorkQueue } from './work-queue';

describe('WorkQueue', () => {
  it('runs at most `concurrency` items at once, refuses items past its capacity and reports idle', async () => {
    const release: Array<() => void> = [];
    let running = 0;
    let peak = 0;
    const done: number[] = [];
    const queue = new WorkQueue<number>(
      3,
      2,
      async (n) => {
        running += 1;
        peak = Math.max(peak, running);
        await new Promise<void>((resolve) => release.push(resolve));
        running -= 1;
        done.push(n);
      },
      () => undefined,
    );
    const accepted = [1, 2, 3, 4, 5, 6].map((n) => queue.add(n));
    // Two run, three wait, the sixth is refused.
    expect(accepted).toEqual([true, true, true, true, true, false]);
    expect(queue.size).toBe(5);
    const idle = queue.idle();
    while (done.length < 5) {
      release.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await idle;
    expect(peak).toBe(2);
    expect(done).toEqual([1, 2, 3, 4, 5]);
    expect(queue.size).toBe(0);
  });

  it('a failing item is reported and does not stop the queue', async () => {
    const errors: unknown[] = [];
    const seen: number[] = [];
    const queue = new WorkQueue<number>(
      10,
      1,
      async (n) => {
        seen.push(n);
        if (n === 1) throw new Error('boom');
      },
      (err) => errors.push(err),
    );
    queue.add(1);
    queue.add(2);
    await queue.idle();
    expect(seen).toEqual([1, 2]);
    expect(errors).toHaveLength(1);
  });
});
