import { bothMaybe, maybeAsync, thenMaybe } from './maybe-async';

describe('maybe-async', () => {
  it('answers a value at once when every step has it (no promise)', () => {
    expect(thenMaybe(2, (n) => n * 3)).toBe(6);
    expect(maybeAsync(() => 'now')).toBe('now');
    expect(bothMaybe(1, 'a')).toEqual([1, 'a']);
  });

  it('answers a promise as soon as one step is a promise', async () => {
    const later = thenMaybe(Promise.resolve(2), (n) => n * 3);
    expect(later).toBeInstanceOf(Promise);
    await expect(later).resolves.toBe(6);
    await expect(thenMaybe(2, (n) => Promise.resolve(n + 1))).resolves.toBe(3);
    await expect(bothMaybe(1, Promise.resolve('b'))).resolves.toEqual([1, 'b']);
    await expect(bothMaybe(Promise.resolve(1), 'b')).resolves.toEqual([1, 'b']);
  });

  it('fails the same way warm or cold: a throwing step is a rejected promise, never a synchronous throw', async () => {
    const boom = new Error('not found');
    const fail = (): number => {
      throw boom;
    };
    const warm = thenMaybe(1, fail);
    const cold = thenMaybe(Promise.resolve(1), fail);
    expect(warm).toBeInstanceOf(Promise);
    await expect(warm).rejects.toBe(boom);
    await expect(cold).rejects.toBe(boom);
    await expect(maybeAsync(fail)).rejects.toBe(boom);
    await expect(bothMaybe(Promise.reject(boom), 1)).rejects.toBe(boom);
  });
});
