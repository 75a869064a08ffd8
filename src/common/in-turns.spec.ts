import { inTurns } from './in-turns';

describe('inTurns', () => {
  it('visits every item in order, a slice per turn, letting other work run between slices', async () => {
    const seen: string[] = [];
    const done = inTurns([0, 1, 2, 3, 4, 5, 6], 3, (n) => seen.push(String(n)));
    expect(seen).toEqual(['0', '1', '2']);
    setImmediate(() => seen.push('other'));
    await done;
    // The next slice was queued first; the other work runs before the one after it.
    expect(seen).toEqual(['0', '1', '2', '3', '4', '5', 'other', '6']);
  });

  it('resolves at once for nothing to visit', async () => {
    const visit = jest.fn();
    await inTurns([], 3, visit);
    expect(visit).not.toHaveBeenCalled();
  });
});
