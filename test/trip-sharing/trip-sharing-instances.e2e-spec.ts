import { eventsCrossed } from '../realtime/live-client';
import { acceptedRide, setStatus } from '../rides/ride-helpers';
import { twoInstancesOverRedis } from '../support/instances';
import { describeWithRedis } from '../support/redis';

/**
 * The shared view and the ride details are cached per instance for a minute here: what one instance
 * changes (a status step, a heartbeat, ended links, a rating) must show at once on the other, through
 * the events every instance consumes and the live-position store they share.
 */
describeWithRedis('trip sharing and ratings across instances (Redis)', () => {
  const apps = twoInstancesOverRedis({ SHARED_RIDE_CACHE_MS: '60000', RIDE_CACHE_MS: '60000', SHARED_RIDE_RATE_LIMIT_PER_IP_PER_MINUTE: '0' });

  it('a link made on one instance follows status, position, the end of sharing and the rating made on the other', async () => {
    const { first, second } = apps();
    const { passenger, driver, rideId } = await acceptedRide(first);
    const token = (await first.request({ method: 'POST', url: `/api/v1/rides/${rideId}/share`, token: passenger.accessToken })).json().token;
    const view = () => second.request({ method: 'GET', url: `/api/v1/shared-rides/${token}` });
    expect((await view()).json()).toMatchObject({ status: 'accepted', driver_location: null }); // cached on the second

    const beat = await first.request({
      method: 'PUT',
      url: '/api/v1/driver/location',
      token: driver.accessToken,
      payload: { latitude: 52.5205, longitude: 13.4099 },
    });
    expect(beat.statusCode).toBe(200);
    for (const step of ['driver_arrived', 'started']) expect((await setStatus(first, driver, rideId, step)).statusCode).toBe(200);
    await eventsCrossed([first, second]);
    expect((await view()).json()).toMatchObject({ status: 'started', driver_location: { latitude: 52.5205, longitude: 13.4099 } });

    expect((await setStatus(first, driver, rideId, 'completed')).statusCode).toBe(200);
    await eventsCrossed([first, second]);
    const details = async () => (await second.request({ method: 'GET', url: `/api/v1/rides/${rideId}`, token: passenger.accessToken })).json();
    expect(await details()).toMatchObject({ status: 'completed', driver_rating: null }); // cached on the second
    const rated = await first.request({ method: 'POST', url: `/api/v1/rides/${rideId}/rating`, token: passenger.accessToken, payload: { stars: 4 } });
    expect(rated.statusCode).toBe(201);
    await eventsCrossed([first, second]);
    expect(await details()).toMatchObject({ driver_rating: 4, driver: { rating: 4 } });
    expect((await view()).json()).toMatchObject({ status: 'completed', driver: { rating: 4 }, driver_location: null });

    expect((await first.request({ method: 'DELETE', url: `/api/v1/rides/${rideId}/share`, token: passenger.accessToken })).statusCode).toBe(204);
    await eventsCrossed([first, second]);
    expect((await view()).statusCode).toBe(404);
  });
});
