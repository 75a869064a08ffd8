import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { EventBus } from '../../src/common/events/event-bus';
import { createUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { partialBid } from '../support/event-fixtures';
import { waitFor } from '../support/wait';

/** The script the README points to for watching the channel really connects and prints events. */
describe('scripts/watch-live.js', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('prints the snapshot and the events of the signed-in user', async () => {
    const user = await createUser(t);
    const child = spawn(process.execPath, [join(__dirname, '../../scripts/watch-live.js'), '--url', t.wsUrl, '--token', user.accessToken]);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const seen = (text: string) =>
      waitFor(`"${text}" printed`, () => output.includes(text)).catch(() => {
        throw new Error(`"${text}" not printed; got: ${output}`);
      });
    try {
      await seen('ride_snapshot');
      t.get(EventBus).publish('bid.submitted', { ride_id: 'ride-42', passenger_id: user.id, driver_id: 1, bid: partialBid({ id: 'bid-42' }) });
      await seen('bid_submitted ride=ride-42');
      await seen('"id": "bid-42"');
    } finally {
      child.kill('SIGINT');
    }
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
  });

  it('exits with 1 and says why when the token is refused', async () => {
    const child = spawn(process.execPath, [join(__dirname, '../../scripts/watch-live.js'), '--url', t.wsUrl, '--token', 'nope']);
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(errors).toContain('closed: 4401');
  });
});
