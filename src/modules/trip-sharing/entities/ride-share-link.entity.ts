import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/**
 * A trip-sharing link (CONTRACT §11), known by the SHA-256 (hex) of its token; the token itself is
 * never stored. It ends when revoked or 30 minutes after its ride is final (read from the ride).
 */
@Entity({ name: 'ride_share_links' })
@Index('ride_share_links_ride_idx', ['rideId'])
export class RideShareLinkEntity {
  @PrimaryColumn({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash!: string;

  @Column({ name: 'ride_id', type: 'uuid' })
  @ForeignKey('rides', { name: 'ride_share_links_ride_id_fkey', onDelete: 'CASCADE' })
  rideId!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;
}
