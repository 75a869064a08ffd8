import { Logger } from '@nestjs/common';
import type { VehicleCategoryEntity } from './entities/vehicle-category.entity';
import type { VehicleCategoriesRepository } from './repositories/vehicle-categories.repository';
import { VehicleCategoriesService } from './vehicle-categories.service';

const category = (id: number, name: string): VehicleCategoryEntity => ({ id, name, isActive: true }) as VehicleCategoryEntity;

/** Lets pending promise callbacks and Node's unhandled-rejection check run. */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));

describe('VehicleCategoriesService background reload', () => {
  let now: number;
  let unhandled: unknown[];
  const onUnhandled = (reason: unknown): void => {
    unhandled.push(reason);
  };

  beforeEach(() => {
    now = 1_000_000;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    unhandled = [];
    process.on('unhandledRejection', onUnhandled);
  });
  afterEach(() => {
    process.off('unhandledRejection', onUnhandled);
    jest.restoreAllMocks();
  });

  it('keeps serving the stale copy when a reload fails, logs it, and retries on a later call', async () => {
    const findAllOrdered = jest
      .fn<Promise<VehicleCategoryEntity[]>, []>()
      .mockResolvedValueOnce([category(1, 'Economy')])
      .mockRejectedValueOnce(new Error('connection terminated'))
      .mockResolvedValueOnce([category(1, 'Economy'), category(2, 'Comfort')]);
    const service = new VehicleCategoriesService({ findAllOrdered } as unknown as VehicleCategoriesRepository);

    expect((await service.listActive()).map((c) => c.name)).toEqual(['Economy']);

    now += 31_000;
    expect((await service.listActive()).map((c) => c.name)).toEqual(['Economy']);
    await settle();
    expect(findAllOrdered).toHaveBeenCalledTimes(2);
    expect(unhandled).toEqual([]);
    expect(Logger.prototype.warn).toHaveBeenCalledTimes(1);
    expect(await service.findActive(1)).toMatchObject({ name: 'Economy' });

    // The failed reload left the copy stale, so the next call queries again.
    await settle();
    await service.listActive();
    await settle();
    expect(findAllOrdered).toHaveBeenCalledTimes(3);
    expect((await service.listActive()).map((c) => c.name)).toEqual(['Economy', 'Comfort']);
    expect(unhandled).toEqual([]);
  });

  it('hands a failing first load to the caller (there is nothing to serve yet)', async () => {
    const findAllOrdered = jest.fn().mockRejectedValueOnce(new Error('down')).mockResolvedValueOnce([category(1, 'Economy')]);
    const service = new VehicleCategoriesService({ findAllOrdered } as unknown as VehicleCategoriesRepository);
    await expect(service.listActive()).rejects.toThrow('down');
    await settle();
    expect(unhandled).toEqual([]);
    expect(Logger.prototype.warn).not.toHaveBeenCalled();
    expect(await service.findActive(1)).toMatchObject({ name: 'Economy' });
  });
});
