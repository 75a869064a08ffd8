import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'vehicle_categories' })
export class VehicleCategoryEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 32, unique: true })
  code!: string;

  @Column({ type: 'varchar', length: 60 })
  name!: string;

  @Column({ type: 'varchar', length: 300 })
  description!: string;

  @Column({ name: 'max_passengers', type: 'int' })
  maxPassengers!: number;

  @Column({ name: 'max_luggage', type: 'int' })
  maxLuggage!: number;

  @Column({ name: 'luggage_capacity', type: 'int' })
  luggageCapacity!: number;

  @Column({ name: 'base_fare_minor', type: 'int' })
  baseFareMinor!: number;

  @Column({ name: 'per_km_rate_minor', type: 'int' })
  perKmRateMinor!: number;

  @Column({ name: 'per_minute_rate_minor', type: 'int' })
  perMinuteRateMinor!: number;

  @Column({ name: 'minimum_fare_minor', type: 'int' })
  minimumFareMinor!: number;

  @Column({ name: 'sort_order', type: 'int' })
  sortOrder!: number;

  @Column({ name: 'is_active', type: 'boolean' })
  isActive!: boolean;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
