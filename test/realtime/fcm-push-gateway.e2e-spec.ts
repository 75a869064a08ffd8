import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FcmPushGateway } from '../../src/common/push/fcm-push-gateway';
import { readServiceAccount } from '../../src/config/outreach-config';
import { FakeFcm, startFakeFcm } from '../support/fake-fcm';

const MESSAGE = { token: 'fcm-gateway-test', data: { type: 'ride_requested', ride_id: 'r' }, title: 'New ride request', body: 'Pickup' };

describe('FcmPushGateway against a hanging FCM', () => {
  let dir: string;
  let fcm: FakeFcm;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fcm-gateway-'));
    fcm = await startFakeFcm(dir);
  });
  afterAll(async () => {
    await fcm?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const gateway = (sendTimeoutMs?: number) =>
    new FcmPushGateway({ serviceAccount: readServiceAccount(fcm.serviceAccountFile), apiBase: fcm.url }, sendTimeoutMs);

  it('gives up on a send FCM never answers after its send timeout, as unavailable, without a retry', async () => {
    fcm.outage = 'hang';
    const before = fcm.sendRequests;
    const started = Date.now();
    await expect(gateway(300).send(MESSAGE)).rejects.toMatchObject({ name: 'DeliveryError', kind: 'unavailable' });
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(5000);
    expect(fcm.sendRequests - before).toBe(1);
    fcm.cutHanging();
  });

  it('sends once FCM answers again', async () => {
    fcm.outage = undefined;
    await expect(gateway().send(MESSAGE)).resolves.toBe('sent');
    expect(fcm.delivered.map((m) => m.token)).toEqual([MESSAGE.token]);
  });
});
