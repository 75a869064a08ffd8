import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

export interface ShareLinkRow {
  ride_id: string;
  revoked: boolean;
}

/** The ride_share_links table: links by the hash of their token. */
@Injectable()
export class ShareLinksRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  async insert(tokenHash: string, rideId: string, manager?: EntityManager): Promise<void> {
    await this.m(manager).query(`INSERT INTO ride_share_links (token_hash, ride_id) VALUES ($1, $2)`, [tokenHash, rideId]);
  }

  /** One primary-key lookup. */
  async findByHash(tokenHash: string, manager?: EntityManager): Promise<ShareLinkRow | undefined> {
    const rows: ShareLinkRow[] = await this.m(manager).query(`SELECT ride_id, revoked_at IS NOT NULL AS revoked FROM ride_share_links WHERE token_hash = $1`, [
      tokenHash,
    ]);
    return rows[0];
  }

  /** Ends every live link of the ride. */
  async revokeAllOf(rideId: string, manager?: EntityManager): Promise<void> {
    await this.m(manager).query(`UPDATE ride_share_links SET revoked_at = now() WHERE ride_id = $1 AND revoked_at IS NULL`, [rideId]);
  }
}
