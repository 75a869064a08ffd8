import { InProcessEventBus } from '../../../../common/events/in-process-event-bus';
import { subscribeDomainEventHandlers } from '../../../../common/events/on-domain-event';
import type { AppConfig } from '../../../../config/app-config';
import type { RideView } from '../ride-view';
import { OpenRequestsIndex } from './open-requests.index';
import type { OpenRequestsRepository } from './open-requests.repository';

const HOUR = 3600_000;

function ride(
  id: string,
  fields: { status?: string; latitude?: number; category?: number; expiresIn?: number; updatedAt?: string; note?: string } = {},
): RideView {
  const view = {
    id,
    status: fields.status ?? 'requested',
    pickup: { address: fields.note ?? 'here', latitude: fields.latitude ?? 52.5, longitude: 13.4 },
    vehicle_category_id: fields.category ?? 1,
    passenger: { id: 7 },
    expires_at: new Date(Date.now() + (fields.expiresIn ?? HOUR)).toISOString(),
    updated_at: fields.updatedAt ?? '2026-01-01T00:00:00.000Z',
    created_at: '2026-01-01T00:00:00.000Z',
  };
  return view as unknown as RideView;
}

/** The index on an in-process bus and an empty database (no row ever comes back). */
async function setUp() {
  const empty = { streamOpen: async () => undefined, streamFingerprints: async () => undefined, findOpen: async () => [] };
  const bus = new InProcessEventBus();
  const index = new OpenRequestsIndex(empty as unknown as OpenRequestsRepository, bus, { openRequestsReconcileSeconds: 3600 } as AppConfig);
  subscribeDomainEventHandlers(bus, index);
  await index.resynchronise('test');
  const publish = (
    name: 'ride.requested' | 'ride.offer_raised' | 'ride.dispatched' | 'ride.cancelled' | 'ride.accepted' | 'ride.status_changed',
    r: RideView,
  ) => bus.publish(name, { ride_id: r.id, ride: r } as never);
  const page = (latitude = 52.5, radiusKm = 5, vehicleCategoryId: number | null = null) =>
    JSON.parse(index.nearbyBody({ latitude, longitude: 13.4, radiusKm, vehicleCategoryId, limit: 50 })!) as Array<RideView & { distance_km: number }>;
  return { index, publish, page };
}

describe("OpenRequestsIndex.openIn (the operators' live view)", () => {
  const box = (minLatitude: number, maxLatitude: number, minLongitude = 13, maxLongitude = 14) => ({ minLatitude, maxLatitude, minLongitude, maxLongitude });

  it('the open, unexpired requests whose pickup is in the box (edges included), by the cells or by every cell', async () => {
    const { index, publish } = await setUp();
    publish('ride.requested', ride('in', { latitude: 52.5 }));
    publish('ride.requested', ride('edge', { latitude: 52.6 }));
    publish('ride.requested', ride('north', { latitude: 53.5 }));
    publish('ride.requested', ride('expired', { latitude: 52.5, expiresIn: -1 }));
    publish('ride.requested', ride('taken', { latitude: 52.5 }));
    publish('ride.accepted', ride('taken', { status: 'accepted', latitude: 52.5, updatedAt: '2026-01-01T00:00:01.000Z' }));
    const ids = (b: ReturnType<typeof box>) =>
      index
        .openIn(b, 100)
        .map((r) => r.id)
        .sort();
    expect(ids(box(52.4, 52.6))).toEqual(['edge', 'in']);
    expect(ids(box(-90, 90, -180, 180))).toEqual(['edge', 'in', 'north']);
    expect(ids(box(52.4, 52.6, 13.5, 14))).toEqual([]);
    expect(index.openIn(box(52.45, 52.55), 100)).toEqual([{ id: 'in', latitude: 52.5, longitude: 13.4, created_at: '2026-01-01T00:00:00.000Z' }]);
  });

  it('stops at the limit', async () => {
    const { index, publish } = await setUp();
    for (let i = 0; i < 30; i += 1) publish('ride.requested', ride(`r${i}`, { latitude: 52 + i / 100 }));
    expect(index.openIn(box(50, 55), 7)).toHaveLength(7);
    expect(index.openIn(box(-90, 90, -180, 180), 12)).toHaveLength(12);
    expect(index.openIn(box(50, 55), 100)).toHaveLength(30);
  });
});

describe('OpenRequestsIndex', () => {
  it('lists what the events say is open, nearest first, with distance_km; leaves out expired rides before any sweep', async () => {
    const { publish, page } = await setUp();
    publish('ride.requested', ride('b', { latitude: 52.51 }));
    publish('ride.dispatched', ride('a', { latitude: 52.5 }));
    publish('ride.requested', ride('gone', { expiresIn: -1 }));
    expect(page().map((r) => [r.id, r.distance_km])).toEqual([
      ['a', 0],
      ['b', 1.11],
    ]);
  });

  it('filters by category (null: any) and radius', async () => {
    const { publish, page } = await setUp();
    publish('ride.requested', ride('one', { category: 1 }));
    publish('ride.requested', ride('two', { category: 2, latitude: 52.52 }));
    expect(page(52.5, 5, 2).map((r) => r.id)).toEqual(['two']);
    expect(page(52.5, 5, null).map((r) => r.id)).toEqual(['one', 'two']);
    expect(page(52.5, 1, null).map((r) => r.id)).toEqual(['one']);
  });

  it('a raised offer replaces the entry; an older copy arriving late does not', async () => {
    const { publish, page } = await setUp();
    publish('ride.requested', ride('r', { note: 'first' }));
    publish('ride.offer_raised', ride('r', { note: 'raised', updatedAt: '2026-01-01T00:00:05.000Z' }));
    publish('ride.requested', ride('r', { note: 'first' }));
    expect(page().map((r) => r.pickup.address)).toEqual(['raised']);
  });

  it('a ride that left (accepted, cancelled) never comes back through an event overtaken on its way', async () => {
    const { publish, page, index } = await setUp();
    publish('ride.requested', ride('x'));
    publish('ride.requested', ride('y', { latitude: 52.501 }));
    publish('ride.accepted', ride('x', { status: 'accepted' }));
    publish('ride.cancelled', ride('z', { status: 'cancelled' }));
    publish('ride.requested', ride('x'));
    publish('ride.requested', ride('z'));
    expect(page().map((r) => r.id)).toEqual(['y']);
    expect(index.size).toBe(1);
  });

  it('a ride seen before it was open (scheduled) still comes in when it is dispatched', async () => {
    const { publish, page } = await setUp();
    publish('ride.status_changed', ride('later', { status: 'scheduled' }));
    expect(page()).toEqual([]);
    publish('ride.dispatched', ride('later', { updatedAt: '2026-01-01T01:00:00.000Z' }));
    expect(page().map((r) => r.id)).toEqual(['later']);
  });

  it('counts open, unexpired requests of one category within the radius (surge)', async () => {
    const { publish, index } = await setUp();
    publish('ride.requested', ride('1', { category: 1 }));
    publish('ride.requested', ride('2', { category: 1, latitude: 52.53 }));
    publish('ride.requested', ride('3', { category: 2 }));
    publish('ride.requested', ride('4', { category: 1, expiresIn: -1 }));
    const here = { latitude: 52.5, longitude: 13.4 };
    expect(index.countNear(here, 5, 1)).toBe(2);
    expect(index.countNear(here, 2, 1)).toBe(1);
    expect(index.countNear(here, 5, 2)).toBe(1);
    expect(index.countNear(here, 5, 3)).toBe(0);
  });

  it('gives back every ride JSON byte for byte, whatever its text holds, across shapes and replacements', async () => {
    const { publish, index } = await setUp();
    const nulls = { duration_minutes: null, end_scheduled_at: null, return_scheduled_at: null, promo_code: null, pickup_at: null, fare: null, tip: null };
    const notes = [
      'plain',
      'quote " and \\ backslash',
      'a "," b',
      '","end_scheduled_at":null,"return_scheduled_at":null,"promo_code":null',
      'ünïcödé 東京 😀',
      'x'.repeat(70_000),
      '',
    ];
    const rides = new Map<string, RideView>();
    notes.forEach((note, i) => {
      const promo = i % 2 === 0 ? null : `P${i}`;
      const r = { ...ride(`n${i}`, { note, latitude: 52.5 + i * 1e-4 }), ...nulls, promo_code: promo, status: 'requested' } as unknown as RideView;
      rides.set(r.id, r);
      publish('ride.requested', r);
    });
    const later = { ...rides.get('n3')!, promo_code: 'LATER', updated_at: '2026-01-02T00:00:00.000Z' } as unknown as RideView;
    rides.set('n3', later);
    publish('ride.offer_raised', later);
    publish('ride.cancelled', { ...rides.get('n0')!, status: 'cancelled' } as unknown as RideView);
    rides.delete('n0');
    const body = index.nearbyBody({ latitude: 52.5, longitude: 13.4, radiusKm: 5, vehicleCategoryId: null, limit: 50 })!;
    const listed = JSON.parse(body) as Array<{ id: string; distance_km: number }>;
    expect(listed.map((r) => r.id).sort()).toEqual([...rides.keys()].sort());
    const expected = listed.map((r) => `${JSON.stringify(rides.get(r.id)).slice(0, -1)},"distance_km":${r.distance_km}}`);
    expect(body).toBe(`[${expected.join(',')}]`);
  });

  it('answers nothing (the database then does) until the start-up load is done', () => {
    const repository = { streamOpen: () => new Promise(() => undefined) } as unknown as OpenRequestsRepository;
    const index = new OpenRequestsIndex(repository, new InProcessEventBus(), { openRequestsReconcileSeconds: 3600 } as AppConfig);
    void index.resynchronise('start-up');
    expect(index.ready).toBe(false);
    expect(index.nearbyBody({ latitude: 0, longitude: 0, radiusKm: 5, vehicleCategoryId: null, limit: 50 })).toBeUndefined();
  });
});

describe('OpenRequestsIndex reconciliation, streamed page by page', () => {
  /** The index on a database that lists `listed` (in pages as the index asks for them) and runs `between` after the first page. */
  async function reconciled(events: RideView[], listed: string[], between: (publish: (r: RideView) => void) => void) {
    const repository = {
      streamOpen: async () => undefined,
      findOpen: async () => [],
      streamFingerprints: async (pageSize: number, onPage: (rows: Array<{ id: string; fp: number }>) => Promise<boolean>) => {
        for (let i = 0; i < listed.length; i += pageSize) {
          await onPage(listed.slice(i, i + pageSize).map((id) => ({ id, fp: 1 })));
          if (i === 0) between(publish);
        }
      },
    };
    const bus = new InProcessEventBus();
    const index = new OpenRequestsIndex(repository as unknown as OpenRequestsRepository, bus, { openRequestsReconcileSeconds: 3600 } as AppConfig);
    subscribeDomainEventHandlers(bus, index);
    const publish = (r: RideView) => bus.publish('ride.requested', { ride_id: r.id, ride: r } as never);
    await index.resynchronise('start-up');
    for (const r of events) publish(r);
    await index.reconcile();
    return index;
  }

  it('drops what the database no longer lists, keeps what an event put while the pages were read', async () => {
    const index = await reconciled([ride('a'), ride('b'), ride('c')], ['a', 'c'], (publish) => publish(ride('d')));
    const ids = JSON.parse(index.nearbyBody({ latitude: 52.5, longitude: 13.4, radiusKm: 5, vehicleCategoryId: null, limit: 50 })!).map((r: RideView) => r.id);
    expect(ids.sort()).toEqual(['a', 'c', 'd']);
  });

  it('sweeps an index larger than a page: every unlisted ride goes, every listed one stays', async () => {
    const ids = Array.from({ length: 12_000 }, (_, i) => `r${String(i).padStart(5, '0')}`);
    const gone = new Set(['r00007', 'r05000', 'r11999']);
    const index = await reconciled(
      ids.map((id) => ride(id)),
      ids.filter((id) => !gone.has(id)),
      () => undefined,
    );
    expect(index.size).toBe(11_997);
  });
});
