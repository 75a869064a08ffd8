import { withOneRetry } from './one-retry';

const budget = { budgetMs: 1000, firstAttemptMs: 600, pauseMs: 10 };

describe('withOneRetry', () => {
  it('answers the first success without a retry', async () => {
    const calls: number[][] = [];
    await expect(
      withOneRetry(
        budget,
        async (ms, n) => (calls.push([ms, n]), 'ok'),
        () => true,
      ),
    ).resolves.toBe('ok');
    expect(calls).toEqual([[600, 1]]);
  });

  it('retries once a failure worth it, with what is left of the budget', async () => {
    const calls: Array<[number, number]> = [];
    const result = await withOneRetry(
      budget,
      async (ms, n) => {
        calls.push([ms, n]);
        if (n === 1) throw new Error('503');
        return 'second';
      },
      () => true,
    );
    expect(result).toBe('second');
    expect(calls.map(([, n]) => n)).toEqual([1, 2]);
    // What is left of the budget after the first attempt and the pause (less on a busy machine).
    expect(calls[1]![0]).toBeLessThanOrEqual(1000 - 10);
    expect(calls[1]![0]).toBeGreaterThan(0);
  });

  it('never retries a failure that is not worth it, and rethrows the last failure', async () => {
    let calls = 0;
    const refused = new Error('402');
    await expect(
      withOneRetry(
        budget,
        async () => {
          calls += 1;
          throw refused;
        },
        () => false,
      ),
    ).rejects.toBe(refused);
    expect(calls).toBe(1);
    await expect(
      withOneRetry(
        budget,
        async (_ms, n) => {
          throw new Error(`fail ${n}`);
        },
        () => true,
      ),
    ).rejects.toThrow('fail 2');
  });

  it('gives up without a second attempt when the first used the whole budget', async () => {
    let calls = 0;
    const tight = { budgetMs: 20, firstAttemptMs: 20, pauseMs: 5 };
    await expect(
      withOneRetry(
        tight,
        async () => {
          calls += 1;
          await new Promise((r) => setTimeout(r, 40));
          throw new Error('slow');
        },
        () => true,
      ),
    ).rejects.toThrow('slow');
    expect(calls).toBe(1);
  });
});
