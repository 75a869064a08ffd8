import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** One side's rating of a ride (CONTRACT §11). The primary key (ride, side) is what makes "once each" hold. */
@Entity({ name: 'ride_ratings' })
@Check('ride_ratings_rated_by_check', `rated_by IN ('passenger', 'driver')`)
@Check('ride_ratings_stars_check', `stars BETWEEN 1 AND 5`)
@Index('ride_ratings_rated_user_idx', ['ratedUserId', 'createdAt'])
export class RideRatingEntity {
  @PrimaryColumn({ name: 'ride_id', type: 'uuid' })
  @ForeignKey('rides', { name: 'ride_ratings_ride_id_fkey', onDelete: 'CASCADE' })
  rideId!: string;

  @PrimaryColumn({ name: 'rated_by', type: 'varchar', length: 16 })
  ratedBy!: 'passenger' | 'driver';

  @Column({ name: 'rater_id', type: 'int', nullable: true })
  @ForeignKey('users', { name: 'ride_ratings_rater_id_fkey', onDelete: 'SET NULL' })
  raterId!: number | null;

  @Column({ name: 'rated_user_id', type: 'int', nullable: true })
  @ForeignKey('users', { name: 'ride_ratings_rated_user_id_fkey', onDelete: 'SET NULL' })
  ratedUserId!: number | null;

  @Column({ type: 'smallint' })
  stars!: number;

  @Column({ type: 'varchar', length: 500, nullable: true })
  comment!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
