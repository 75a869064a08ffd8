import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PushChannel } from '../../src/modules/realtime/push/push-channel';
import { LiveClient } from '../realtime/live-client';
import { acceptedRide } from '../rides/ride-helpers';
import { createOperator, TestOperator } from '../support/factories';
import { FakeFcm, startFakeFcm } from '../support/fake-fcm';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * An SOS reaches operators who are not watching (issue 26: "live sockets (and push)"): every operator
 * account with a registered device and no live socket anywhere gets one push; one with a socket gets
 * `sos_raised` there and no push; a passenger or driver is never pushed an operator alert.
 */
describe('SOS pushed to operators without a live socket', () => {
  let dir: string;
  let fcm: FakeFcm;
  let t: TestApp;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sos-push-'));
    fcm = await startFakeFcm(dir);
    t = await startTestApp({ env: { FCM_SERVICE_ACCOUNT_FILE: fcm.serviceAccountFile, FCM_API_BASE: fcm.url } });
  });
  afterAll(async () => {
    await t?.close();
    await fcm?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const withDevice = async (user: { id: number }, token: string): Promise<void> => {
    await t.db.query(`UPDATE users SET device_token = $2 WHERE id = $1`, [user.id, token]);
  };
  const pushesTo = (token: string) => fcm.delivered.filter((m) => m.token === token).map((m) => m.body.message as { data: Record<string, string> });

  it('pushes sos_raised to the operators away from the console, not to those watching it nor to the ride', async () => {
    const away: TestOperator = await createOperator(t, 'support');
    const watching: TestOperator = await createOperator(t, 'ops');
    const tag = `${process.pid}-${Date.now()}`;
    await withDevice(away, `op-away-${tag}`);
    await withDevice(watching, `op-watching-${tag}`);
    const { passenger, driver, rideId } = await acceptedRide(t);
    await withDevice(passenger, `rider-${tag}`);
    await withDevice(driver, `driver-${tag}`);
    const socket = await LiveClient.connect(t, watching.accessToken);

    const res = await t.request({ method: 'POST', url: `/api/v1/rides/${rideId}/sos`, token: passenger.accessToken, payload: {} });
    expect(res.statusCode).toBe(201);
    expect((await socket.next('sos_raised')).ride_id).toBe(rideId);
    await t.get(PushChannel).idle();

    expect(pushesTo(`op-away-${tag}`)).toEqual([expect.objectContaining({ data: { type: 'sos_raised', ride_id: rideId } })]);
    expect(pushesTo(`op-watching-${tag}`)).toEqual([]);
    expect(pushesTo(`rider-${tag}`).map((m) => m.data.type)).not.toContain('sos_raised');
    expect(pushesTo(`driver-${tag}`).map((m) => m.data.type)).not.toContain('sos_raised');
    await socket.close();
  });
});
