import { InProcessEventBus } from '../../common/events/in-process-event-bus';
import { subscribeDomainEventHandlers } from '../../common/events/on-domain-event';
import type { AppConfig } from '../../config/app-config';
import type { SurgeDemandPort } from '../pricing/surge-signals.port';
import { OpenRequestsIndex } from './read-models/open-requests/open-requests.index';
import type { OpenRequestsRepository } from './read-models/open-requests/open-requests.repository';
import type { RideView } from './read-models/ride-view';
import { RidesService } from './rides.service';

/** Surge's demand (SurgeDemandPort, bound to RidesService): the open-requests index, counted in memory. */
describe('RidesService.countOpenRequestsNear', () => {
  it('counts the open requests of the category around the point, as the index holds them, synchronously', async () => {
    const bus = new InProcessEventBus();
    const none = async () => [];
    const repository = { streamOpen: async () => undefined, streamFingerprints: async () => undefined, findOpen: none } as unknown as OpenRequestsRepository;
    const index = new OpenRequestsIndex(repository, bus, { openRequestsReconcileSeconds: 3600 } as AppConfig);
    subscribeDomainEventHandlers(bus, index);
    await index.resynchronise('test');
    const unused = {} as never;
    const rides = new RidesService(unused, unused, unused, unused, unused, unused, index, unused);
    const surge: SurgeDemandPort = rides;

    const book = (id: string, latitude: number, category: number) => {
      const ride = {
        id,
        status: 'requested',
        pickup: { latitude, longitude: 13.4 },
        vehicle_category_id: category,
        passenger: null,
        expires_at: new Date(Date.now() + 60_000).toISOString(),
        updated_at: new Date().toISOString(),
      } as unknown as RideView;
      bus.publish('ride.requested', { ride_id: id, ride } as never);
    };
    const here = { latitude: 52.5, longitude: 13.4 };
    expect(surge.countOpenRequestsNear(here, 5, 1)).toBe(0);
    book('a', 52.5, 1);
    book('b', 52.52, 1);
    book('c', 52.6, 1); // 11 km away
    book('d', 52.5, 2);
    expect(surge.countOpenRequestsNear(here, 5, 1)).toBe(2);
    expect(surge.countOpenRequestsNear(here, 15, 1)).toBe(3);
    expect(surge.countOpenRequestsNear(here, 5, 2)).toBe(1);
    bus.publish('ride.cancelled', { ride_id: 'a', ride: { id: 'a', status: 'cancelled' } } as never);
    expect(surge.countOpenRequestsNear(here, 5, 1)).toBe(1);
  });
});
