import { Logger } from '@nestjs/common';
import { InProcessEventBus } from '../../common/events/in-process-event-bus';
import { subscribeDomainEventHandlers } from '../../common/events/on-domain-event';
import type { AppConfig } from '../../config/app-config';
import type { VehicleCategoryEntity } from './entities/vehicle-category.entity';
import type { VehicleCategoriesRepository } from './vehicle-categories.repository';
import { VehicleCategoriesService } from './vehicle-categories.service';

const CONFIG = { vehicleCategoryCacheMs: 30_000 } as AppConfig;
const serviceOver = (findAllOrdered: () => Promise<VehicleCategoryEntity[]>, events = new InProcessEventBus()) =>
  new VehicleCategoriesService({ findAllOrdered } as unknown as VehicleCategoriesRepository, events, CONFIG);

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
    const service = serviceOver(findAllOrdered);

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
    const findAllOrdered = jest
      .fn()
      .mockRejectedValueOnce(new Error('down'))
      .mockResolvedValueOnce([category(1, 'Economy')]);
    const service = serviceOver(findAllOrdered);
    await expect(service.listActive()).rejects.toThrow('down');
    await settle();
    expect(unhandled).toEqual([]);
    expect(Logger.prototype.warn).not.toHaveBeenCalled();
    expect(await service.findActive(1)).toMatchObject({ name: 'Economy' });
  });

  it('after vehicle_categories.changed every reader waits for the new list, and a read begun before it does not count', async () => {
    let finishEarly: (list: VehicleCategoryEntity[]) => void = () => undefined;
    const findAllOrdered = jest
      .fn<Promise<VehicleCategoryEntity[]>, []>()
      .mockResolvedValueOnce([category(1, 'Economy')])
      .mockImplementationOnce(() => new Promise((resolve) => (finishEarly = resolve)))
      .mockResolvedValueOnce([category(1, 'Economy (new fares)')]);
    const events = new InProcessEventBus();
    const service = serviceOver(findAllOrdered, events);
    const unsubscribe = subscribeDomainEventHandlers(events, service);
    expect((await service.listActive()).map((c) => c.name)).toEqual(['Economy']);

    now += 31_000;
    expect((await service.listActive()).map((c) => c.name)).toEqual(['Economy']); // stale, a reload runs
    service.announceChanged(); // the table was edited meanwhile
    const after = service.listActive();
    finishEarly([category(1, 'Economy')]); // the reload that read before the edit finishes late
    expect((await after).map((c) => c.name)).toEqual(['Economy (new fares)']);
    expect((await service.findActive(1))?.name).toBe('Economy (new fares)');
    expect(findAllOrdered).toHaveBeenCalledTimes(3);
    unsubscribe();
  });
});
