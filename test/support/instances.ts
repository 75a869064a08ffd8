import { startRedis, TestRedis } from './redis';
import { startTestApp, TestApp } from './test-app';

export interface TwoInstances {
  first: TestApp;
  second: TestApp;
  redis: TestRedis;
}

/**
 * Two instances of the service on one database, sharing Redis (events and live positions cross
 * between them), started before the block's tests and stopped after them. Call inside a
 * describeWithRedis block; read the apps through the returned getter once the tests run.
 */
export function twoInstancesOverRedis(env: Record<string, string> = {}): () => TwoInstances {
  let instances: Partial<TwoInstances> = {};
  beforeAll(async () => {
    const redis = await startRedis();
    instances = { redis };
    const withRedis = { ...env, REDIS_URL: redis.url };
    instances.first = await startTestApp({ env: withRedis });
    instances.second = await startTestApp({ databaseUrl: instances.first.databaseUrl, env: withRedis });
  });
  afterAll(async () => {
    await instances.second?.close();
    await instances.first?.close();
    await instances.redis?.stop();
  });
  return () => instances as TwoInstances;
}
