import { freePort, spawnRedis, startRedis, TestRedis } from './redis';
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

export interface TwoInstancesOverOwnRedis extends TwoInstances {
  /** An outage: stops the redis-server and waits until it has exited. */
  stopRedis(): Promise<void>;
  /** Brings it back on the same port, where the instances reconnect. */
  restartRedis(): Promise<void>;
}

/**
 * Two instances of the service on one database over a redis-server of their own, which a test may
 * stop and start again (a bus outage). Call inside a describeWithRedisServer block.
 */
export function twoInstancesOverOwnRedis(env: Record<string, string> = {}): () => TwoInstancesOverOwnRedis {
  let port = 0;
  let instances: Partial<TwoInstances> = {};
  const stopRedis = async (): Promise<void> => {
    await instances.redis?.stop();
    await instances.redis?.exited;
  };
  const restartRedis = async (): Promise<void> => {
    instances.redis = await spawnRedis(port);
  };
  beforeAll(async () => {
    port = await freePort();
    const redis = await spawnRedis(port);
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
  return () => ({ ...(instances as TwoInstances), stopRedis, restartRedis });
}
