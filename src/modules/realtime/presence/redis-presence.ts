import { randomUUID } from 'node:crypto';
import { BeforeApplicationShutdown, Logger, OnModuleInit } from '@nestjs/common';
import type Redis from 'ioredis';
import { Presence } from './presence';

export interface RedisPresenceOptions {
  /** How long a set outlives the last refresh of its instance: the bound after which a crashed instance's sockets stop counting. */
  ttlMs?: number;
  /** How long a query may take before pushes go ahead on this instance's view alone. */
  queryTimeoutMs?: number;
}

/** Instances not heard from in this long are dropped from the index (their sets expired long before). */
const INDEX_RETENTION_MS = 3_600_000;
const CHUNK = 1000;

/**
 * Shared presence over Redis: each instance keeps one set of the user ids it holds sockets for
 * (`<prefix>:presence:<instance>`), with an expiry it renews every third of PRESENCE_TTL. A crashed
 * instance stops renewing, so its set, and with it its users, disappear within the TTL (30 s) by
 * Redis's own clock. An index of instance ids lets a query ask every live set in one pipelined
 * round trip (SMISMEMBER, Redis 6.2+). Connects and disconnects cost one write each; while Redis is
 * unreachable queries answer "nobody elsewhere" (pushes still go to those not connected here) and
 * the sets are rebuilt from this instance's users when Redis is back.
 */
export class RedisPresence extends Presence implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('Presence');
  private readonly instanceId = randomUUID();
  private readonly prefix: string;
  private readonly key: string;
  private readonly index: string;
  private readonly local = new Set<number>();
  private readonly ttlMs: number;
  private readonly queryTimeoutMs: number;
  private timer: NodeJS.Timeout | undefined;
  private failing = false;

  constructor(
    private readonly redis: Redis,
    prefix: string,
    options: RedisPresenceOptions = {},
  ) {
    super();
    this.prefix = `${prefix}:presence:`;
    this.key = this.keyOf(this.instanceId);
    this.index = `${prefix}:presence-instances`;
    this.ttlMs = options.ttlMs ?? 30_000;
    this.queryTimeoutMs = options.queryTimeoutMs ?? 500;
  }

  onModuleInit(): void {
    void this.refresh();
    this.timer = setInterval(() => void this.refresh(), Math.max(10, Math.floor(this.ttlMs / 3)));
    this.timer.unref();
  }

  /** A clean stop takes this instance's users out at once instead of after the TTL. */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.local.clear();
    if (this.redis.status !== 'ready') return;
    await this.redis
      .multi()
      .del(this.key)
      .zrem(this.index, this.instanceId)
      .exec()
      .catch(() => undefined);
  }

  online(userId: number): void {
    this.local.add(userId);
    this.write(this.redis.multi().sadd(this.key, userId).pexpire(this.key, this.ttlMs).zadd(this.index, Date.now(), this.instanceId).exec());
  }

  offline(userId: number): void {
    this.local.delete(userId);
    this.write(this.redis.srem(this.key, userId));
  }

  async elsewhere(userIds: readonly number[]): Promise<Set<number>> {
    const found = new Set<number>();
    if (userIds.length === 0) return found;
    try {
      await this.bounded(async () => {
        const instances = await this.redis.zrangebyscore(this.index, Date.now() - INDEX_RETENTION_MS, '+inf');
        const others = instances.filter((id) => id !== this.instanceId);
        if (others.length === 0) return;
        for (let start = 0; start < userIds.length; start += CHUNK) {
          const chunk = userIds.slice(start, start + CHUNK);
          const pipeline = this.redis.pipeline();
          for (const other of others) pipeline.smismember(this.keyOf(other), ...chunk);
          for (const [err, flags] of (await pipeline.exec()) ?? []) {
            if (err) throw err;
            (flags as number[]).forEach((flag, i) => flag === 1 && found.add(chunk[i]!));
          }
        }
      });
      this.recovered();
    } catch (err) {
      this.failed(err);
      return new Set();
    }
    return found;
  }

  private keyOf(instanceId: string): string {
    return this.prefix + instanceId;
  }

  /** Renews this instance's set; rebuilds it when Redis lost it (a restart, an outage longer than the TTL). */
  private async refresh(): Promise<void> {
    try {
      const results = await this.redis
        .multi()
        .pexpire(this.key, this.ttlMs)
        .zadd(this.index, Date.now(), this.instanceId)
        .zremrangebyscore(this.index, '-inf', Date.now() - INDEX_RETENTION_MS)
        .exec();
      const renewed = results?.[0]?.[1] === 1;
      if (!renewed && this.local.size > 0) {
        const ids = [...this.local];
        for (let start = 0; start < ids.length; start += CHUNK) await this.redis.sadd(this.key, ...ids.slice(start, start + CHUNK));
        await this.redis.pexpire(this.key, this.ttlMs);
      }
      this.recovered();
    } catch (err) {
      this.failed(err);
    }
  }

  private write(command: Promise<unknown>): void {
    command.then(
      () => this.recovered(),
      (err: unknown) => this.failed(err),
    );
  }

  private async bounded(work: () => Promise<void>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Redis did not answer within ${this.queryTimeoutMs} ms`)), this.queryTimeoutMs);
    });
    const running = work();
    running.catch(() => undefined);
    try {
      await Promise.race([running, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Logged once per outage. */
  private failed(err: unknown): void {
    if (this.failing) return;
    this.failing = true;
    this.logger.warn({ err, msg: 'Shared presence unavailable: pushes go to users not connected to this instance' });
  }

  private recovered(): void {
    if (!this.failing) return;
    this.failing = false;
    this.logger.log('Shared presence works again');
  }
}
