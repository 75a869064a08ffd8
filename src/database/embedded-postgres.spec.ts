import { findFreePortExcept } from './embedded-postgres';

describe('findFreePortExcept', () => {
  it('asks again when the probe offers a port to avoid (the service’s own HTTP port, not bound yet)', async () => {
    const offered = [3000, 3000, 5433];
    const find = jest.fn(async () => offered.shift()!);
    await expect(findFreePortExcept([3000], find)).resolves.toBe(5433);
    expect(find).toHaveBeenCalledTimes(3);
  });

  it('gives up after a few offers of avoided ports rather than looping', async () => {
    await expect(findFreePortExcept([3000], async () => 3000)).rejects.toThrow('no free port outside 3000');
  });

  it('takes the first port offered when nothing is to be avoided', async () => {
    await expect(findFreePortExcept([], async () => 41234)).resolves.toBe(41234);
  });
});
