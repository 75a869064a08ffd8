import { eventsCrossed, expectNothingMore, LiveClient } from '../realtime/live-client';
import { acceptedRide, PICKUP, setStatus } from '../rides/ride-helpers';
import { createOperator } from '../support/factories';
import { twoInstancesOverRedis } from '../support/instances';
import { describeWithRedis } from '../support/redis';

/**
 * Two instances over Redis: `sos_raised` reaches the operators connected to either instance, once
 * each; a long stop whose heartbeats reach one instance asks both parties once, wherever their
 * sockets are.
 */
describeWithRedis('safety across instances (Redis)', () => {
  const apps = twoInstancesOverRedis({ RIDE_CHECK_STOP_MINUTES: '0.01' });

  it('an SOS raised on one instance reaches the operators on both, once each', async () => {
    const { first, second } = apps();
    const operatorA = await createOperator(first, 'support');
    const operatorB = await createOperator(first, 'ops');
    const onFirst = await LiveClient.connect(first, operatorA.accessToken);
    const onSecond = await LiveClient.connect(second, operatorB.accessToken);
    const { passenger, rideId } = await acceptedRide(first);
    const res = await first.request({ method: 'POST', url: `/api/v1/rides/${rideId}/sos`, token: passenger.accessToken, payload: {} });
    expect(res.statusCode).toBe(201);
    for (const client of [onFirst, onSecond]) expect((await client.next('sos_raised')).data!.sos).toEqual(res.json());
    await expectNothingMore([onFirst, onSecond], { across: [first, second] });
    for (const client of [onFirst, onSecond]) await client.close();
  });

  it('a long stop reported to one instance asks the parties connected to the other, once', async () => {
    const { first, second } = apps();
    const { passenger, driver, rideId } = await acceptedRide(first);
    await setStatus(first, driver, rideId, 'driver_arrived');
    await setStatus(first, driver, rideId, 'started');
    const riderLive = await LiveClient.connect(second, passenger.accessToken);
    const driverLive = await LiveClient.connect(second, driver.accessToken);
    await eventsCrossed([first, second]);
    const away = { latitude: PICKUP.latitude + 0.01, longitude: PICKUP.longitude };
    expect((await first.request({ method: 'PUT', url: '/api/v1/driver/location', token: driver.accessToken, payload: away })).statusCode).toBe(200);
    for (const client of [riderLive, driverLive]) expect((await client.next('ride_check')).data).toEqual({ reason: 'long_stop' });
    await expectNothingMore([riderLive, driverLive], { across: [first, second] });
    for (const client of [riderLive, driverLive]) expect(client.received.filter((m) => m.type === 'ride_check')).toHaveLength(1);
    for (const client of [riderLive, driverLive]) await client.close();
  });
});
