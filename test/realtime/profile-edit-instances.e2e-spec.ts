import { acceptedRide } from '../rides/ride-helpers';
import { twoInstancesOverRedis } from '../support/instances';
import { describeWithRedis } from '../support/redis';
import { eventsCrossed } from './live-client';

/**
 * Ride details are cached per instance (RIDE_CACHE_MS). A profile edit made through one instance
 * must show at once in the ride details another instance serves: the edit is an event every
 * instance's cache consumes, not a call that clears only the local cache.
 */
describeWithRedis('profile edits across instances (Redis)', () => {
  const apps = twoInstancesOverRedis({ RIDE_CACHE_MS: '60000' });

  it("the passenger's name and the driver's vehicle edited on one instance show at once on the other", async () => {
    const { first, second } = apps();
    const { passenger, driver, rideId } = await acceptedRide(first);
    const details = async () => (await first.request({ method: 'GET', url: `/api/v1/rides/${rideId}`, token: passenger.accessToken })).json();
    expect((await details()).passenger.first_name).toBe('Paula'); // now cached on the first instance for 60 s

    const renamed = await second.request({ method: 'PUT', url: '/api/v1/auth/profile', token: passenger.accessToken, payload: { first_name: 'Petra' } });
    expect(renamed.statusCode).toBe(200);
    const repainted = await second.request({ method: 'PUT', url: '/api/v1/driver/profile', token: driver.accessToken, payload: { vehicle_color: 'Green' } });
    expect(repainted.statusCode).toBe(200);
    await eventsCrossed([second, first]);

    const after = await details();
    expect(after.passenger.first_name).toBe('Petra');
    expect(after.driver.vehicle.color).toBe('Green');
  });
});
