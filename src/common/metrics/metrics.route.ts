import { createHash, timingSafeEqual } from 'node:crypto';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { errorBody } from '../http/error-body';
import { Metrics } from './metrics';
import { instrumentPool } from './pool-metrics';

const UNAUTHORIZED = Object.freeze(errorBody(401, 'A valid metrics token is required (Authorization: Bearer <METRICS_TOKEN>)'));

/**
 * GET /metrics (Prometheus text format), outside /api/v1 and the API's auth: only a scraper holding
 * METRICS_TOKEN may read it. Without a token the route does not exist (404), and nothing is timed.
 */
@Injectable()
export class MetricsRoute implements OnModuleInit {
  private readonly expected: Buffer | undefined;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly metrics: Metrics,
    private readonly db: DataSource,
    config: AppConfig,
  ) {
    this.expected = config.metricsToken ? digest(config.metricsToken) : undefined;
  }

  onModuleInit(): void {
    if (!this.expected) return;
    instrumentPool(this.db, this.metrics);
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.get('/metrics', (request, reply) => this.serve(request, reply));
  }

  private async serve(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    if (!this.authorized(request.headers.authorization)) {
      return reply.status(401).header('www-authenticate', 'Bearer realm="metrics"').send(UNAUTHORIZED);
    }
    const text = await this.metrics.registry.metrics();
    return reply.header('content-type', this.metrics.registry.contentType).header('cache-control', 'no-store').send(text);
  }

  /** Digests have one length whatever was sent, so the comparison takes the same time for every guess. */
  private authorized(header: string | undefined): boolean {
    const match = typeof header === 'string' ? /^Bearer ([^\s]+)$/i.exec(header) : null;
    return match !== null && timingSafeEqual(digest(match[1]!), this.expected!);
  }
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}
