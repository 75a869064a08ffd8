import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/** Stripe events already applied, by event id. */
@Injectable()
export class StripeWebhookEventsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Claims the event inside the transaction of its effect. A concurrent delivery of the same event
   * waits on the primary key until this transaction ends, then finds it taken (false): one effect.
   */
  async claim(eventId: string, type: string, manager: EntityManager): Promise<boolean> {
    const rows: unknown[] = await manager.query(`INSERT INTO stripe_webhook_events (id, type) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING RETURNING id`, [
      eventId,
      type.slice(0, 100),
    ]);
    return rows.length > 0;
  }

  async runInTransaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }
}
