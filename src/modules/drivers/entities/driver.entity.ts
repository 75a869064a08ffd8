import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { RATING_AVERAGE_RULE } from '../../../common/database/rating-average';

/**
 * A driver's profile and last known position, one row per driver user. The table has fillfactor 70
 * and no index on the location columns so that the batched heartbeat flush is a HOT update (set in
 * the migration: TypeORM has no storage parameters). Reads and writes go through raw SQL in
 * DriversRepository; this class documents the schema for TypeORM's diff.
 */
@Entity({ name: 'drivers' })
@Check('drivers_status_check', `status IN ('pending', 'approved', 'rejected', 'suspended')`)
@Check('drivers_rating_average_check', RATING_AVERAGE_RULE)
@Index('drivers_online_idx', ['vehicleCategoryId'], { where: `is_online AND status = 'approved'` })
export class DriverEntity {
  @PrimaryColumn({ name: 'user_id', type: 'int' })
  @ForeignKey('users', { name: 'drivers_user_id_fkey', onDelete: 'CASCADE' })
  userId!: number;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status!: 'pending' | 'approved' | 'rejected' | 'suspended';

  @Column({ name: 'is_online', type: 'boolean', default: false })
  isOnline!: boolean;

  @Column({ name: 'vehicle_category_id', type: 'int', nullable: true })
  @ForeignKey('vehicle_categories', { name: 'drivers_vehicle_category_id_fkey' })
  vehicleCategoryId!: number | null;

  @Column({ name: 'vehicle_make', type: 'varchar', length: 60, nullable: true })
  vehicleMake!: string | null;

  @Column({ name: 'vehicle_model', type: 'varchar', length: 60, nullable: true })
  vehicleModel!: string | null;

  @Column({ name: 'vehicle_plate', type: 'varchar', length: 20, nullable: true })
  vehiclePlate!: string | null;

  @Column({ name: 'vehicle_color', type: 'varchar', length: 30, nullable: true })
  vehicleColor!: string | null;

  @Column({ name: 'vehicle_year', type: 'int', nullable: true })
  vehicleYear!: number | null;

  @Column({ name: 'license_number', type: 'varchar', length: 40, nullable: true })
  licenseNumber!: string | null;

  /** The passengers' average of this driver (null until rated), kept with its sum and count in one UPDATE. */
  @Column({ type: 'numeric', precision: 3, scale: 2, nullable: true })
  rating!: string | null;

  @Column({ name: 'rating_sum', type: 'int', default: 0 })
  ratingSum!: number;

  @Column({ name: 'ratings_count', type: 'int', default: 0 })
  ratingsCount!: number;

  @Column({ name: 'last_latitude', type: 'double precision', nullable: true })
  lastLatitude!: number | null;

  @Column({ name: 'last_longitude', type: 'double precision', nullable: true })
  lastLongitude!: number | null;

  @Column({ name: 'last_heading', type: 'double precision', nullable: true })
  lastHeading!: number | null;

  @Column({ name: 'last_speed', type: 'double precision', nullable: true })
  lastSpeed!: number | null;

  @Column({ name: 'last_accuracy', type: 'double precision', nullable: true })
  lastAccuracy!: number | null;

  @Column({ name: 'last_location_at', type: 'timestamptz', nullable: true })
  lastLocationAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
