import { BatchLoader } from './batch-loader';

describe('BatchLoader', () => {
  it('loads the keys asked for in one turn with one call, and answers each caller', async () => {
    const many = jest.fn(async (keys: number[]) => new Map(keys.filter((k) => k !== 3).map((k) => [k, `v${k}`])));
    const one = jest.fn(async (k: number) => `v${k}`);
    const loader = new BatchLoader({ loadOne: one, loadMany: many });
    const answers = await Promise.all([loader.load(1), loader.load(2), loader.load(1), loader.load(3)]);
    expect(answers).toEqual(['v1', 'v2', 'v1', undefined]);
    expect(many).toHaveBeenCalledTimes(1);
    expect(many).toHaveBeenCalledWith([1, 2, 3]);
    expect(one).not.toHaveBeenCalled();
  });

  it('uses loadOne for a single key, splits large turns, and rejects the callers of a failed batch', async () => {
    const many = jest.fn(async (keys: number[]) => {
      if (keys.includes(4)) throw new Error('down');
      return new Map(keys.map((k) => [k, k * 10]));
    });
    const loader = new BatchLoader({ loadOne: async (k: number) => k * 10, loadMany: many, maxBatch: 2 });
    expect(await loader.load(7)).toBe(70);
    expect(many).not.toHaveBeenCalled();
    const settled = await Promise.allSettled([1, 2, 3, 4].map((k) => loader.load(k)));
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected']);
    expect(many.mock.calls).toEqual([[[1, 2]], [[3, 4]]]);
  });
});
