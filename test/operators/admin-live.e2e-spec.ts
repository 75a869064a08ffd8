import { DriversService } from '../../src/modules/drivers/drivers.service';
import { acceptedRide, bookRide, onlineDriver, PICKUP } from '../rides/ride-helpers';
import { createOperator, createUser, TestOperator, TestUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

const LIVE = '/api/v1/admin/live';
/** A box around Berlin's centre, where the ride helpers put pickups and drivers. */
const BERLIN = 'min_latitude=52.4&min_longitude=13.2&max_latitude=52.6&max_longitude=13.6';

interface LiveView {
  drivers: Array<{ id: number; latitude: number; longitude: number; status: string; ride_id: string | null; at: string }>;
  open_requests: Array<{ id: string; latitude: number; longitude: number; created_at: string }>;
}

describe('the operators’ live view (CONTRACT §13)', () => {
  let t: TestApp;
  let support: TestOperator;

  const view = async (query = BERLIN): Promise<LiveView> => {
    const res = await t.request({ method: 'GET', url: `${LIVE}?${query}`, token: support.accessToken });
    expect([res.statusCode, res.body]).toEqual([200, expect.any(String)]);
    return res.json();
  };
  const heartbeat = (driver: TestUser, latitude: number, longitude: number) =>
    t.request({ method: 'PUT', url: '/api/v1/driver/location', token: driver.accessToken, payload: { latitude, longitude } });

  beforeAll(async () => {
    t = await startTestApp();
    support = await createOperator(t, 'support');
  });
  afterAll(() => t.close());

  it('shows the drivers heard in the box with their status and ride, and the open requests there', async () => {
    const free = await onlineDriver(t);
    expect((await heartbeat(free, 52.53, 13.41)).statusCode).toBe(200);
    const { driver: busy, rideId } = await acceptedRide(t);
    expect((await heartbeat(busy, 52.51, 13.39)).statusCode).toBe(200);
    const away = await onlineDriver(t);
    expect((await heartbeat(away, 48.85, 2.35)).statusCode).toBe(200); // Paris
    const off = await onlineDriver(t);
    expect((await heartbeat(off, 52.5, 13.3)).statusCode).toBe(200);
    await t.get(DriversService).setOnline(off.id, false);
    const passenger = await createUser(t);
    const open = await bookRide(t, passenger);

    const live = await view();
    const byId = new Map(live.drivers.map((d) => [d.id, d]));
    const at = expect.stringMatching(/Z$/);
    expect(byId.get(free.id)).toEqual({ id: free.id, latitude: 52.53, longitude: 13.41, status: 'available', ride_id: null, at });
    expect(byId.get(busy.id)).toEqual({ id: busy.id, latitude: 52.51, longitude: 13.39, status: 'on_ride', ride_id: rideId, at });
    expect(byId.get(off.id)).toMatchObject({ status: 'offline' });
    expect(byId.has(away.id)).toBe(false);
    expect(live.open_requests).toContainEqual({
      id: open.id,
      latitude: PICKUP.latitude,
      longitude: PICKUP.longitude,
      created_at: open.created_at,
    });
    // The accepted ride is no longer open.
    expect(live.open_requests.map((r) => r.id)).not.toContain(rideId);

    const world = await view('');
    expect(world.drivers.map((d) => d.id)).toEqual(expect.arrayContaining([free.id, busy.id, away.id]));
    const paris = await view('min_latitude=48&min_longitude=2&max_latitude=49&max_longitude=3');
    expect(paris.drivers.map((d) => d.id)).toEqual([away.id]);
    expect(paris.open_requests).toEqual([]);
  });

  it('answers from memory: a ride cancelled behind the service’s back stays until an event says otherwise', async () => {
    const passenger = await createUser(t);
    const ride = await bookRide(t, passenger);
    await t.db.query(`UPDATE rides SET status = 'cancelled', cancelled_by = 'passenger', cancelled_at = now() WHERE id = $1`, [ride.id]);
    expect((await view()).open_requests.map((r) => r.id)).toContain(ride.id);
  });

  it('bad bounds are 400s naming the bound', async () => {
    const cases: Array<[string, string, string]> = [
      ['min_latitude=-91', 'min_latitude', 'min_latitude must not be less than -90'],
      ['max_longitude=181', 'max_longitude', 'max_longitude must not be greater than 180'],
      ['min_latitude=north', 'min_latitude', 'min_latitude must be a number conforming to the specified constraints'],
      ['min_latitude=10&max_latitude=5', 'max_latitude', 'max_latitude must not be less than min_latitude'],
      ['min_longitude=10&max_longitude=5', 'max_longitude', 'max_longitude must not be less than min_longitude'],
    ];
    for (const [query, field, message] of cases) {
      const res = await t.request({ method: 'GET', url: `${LIVE}?${query}`, token: support.accessToken });
      expect([query, res.statusCode, res.json().details?.[0]]).toEqual([query, 400, { field, message }]);
    }
  });
});
