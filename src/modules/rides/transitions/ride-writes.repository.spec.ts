import { DataSource, QueryFailedError } from 'typeorm';
import { RideWritesRepository } from './ride-writes.repository';

function failure(code: string): QueryFailedError {
  return new QueryFailedError('UPDATE bids ...', [], Object.assign(new Error(`pg ${code}`), { code }));
}

/** A DataSource whose transactions fail with the given errors first, then run the work. */
function dataSource(failures: unknown[]) {
  let calls = 0;
  const ds = {
    transaction: async (work: (m: unknown) => Promise<unknown>) => {
      calls += 1;
      const next = failures.shift();
      if (next) throw next;
      return work({});
    },
  };
  return { repo: new RideWritesRepository(ds as unknown as DataSource), calls: () => calls };
}

describe('RideWritesRepository.runInTransaction', () => {
  it('runs a deadlock victim or a serialization failure again', async () => {
    const { repo, calls } = dataSource([failure('40P01'), failure('40001')]);
    await expect(repo.runInTransaction(async () => 'done')).resolves.toBe('done');
    expect(calls()).toBe(3);
  });

  it('gives up after three attempts with the database error', async () => {
    const { repo, calls } = dataSource([failure('40P01'), failure('40P01'), failure('40P01'), failure('40P01')]);
    await expect(repo.runInTransaction(async () => 'done')).rejects.toBeInstanceOf(QueryFailedError);
    expect(calls()).toBe(3);
  });

  it('does not retry other failures', async () => {
    const { repo, calls } = dataSource([failure('23505')]);
    await expect(repo.runInTransaction(async () => 'done')).rejects.toBeInstanceOf(QueryFailedError);
    expect(calls()).toBe(1);
  });
});
