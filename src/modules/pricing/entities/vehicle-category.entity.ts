import { Check, Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'vehicle_categories' })
@Check('vehicle_categories_max_passengers_check', `max_passengers >= 0`)
@Check('vehicle_categories_max_luggage_check', `max_luggage >= 0`)
@Check('vehicle_categories_luggage_capacity_check', `luggage_capacity >= 0`)
@Check('vehicle_categories_base_fare_minor_check', `base_fare_minor >= 0`)
@Check('vehicle_categories_per_km_rate_minor_check', `per_km_rate_minor >= 0`)
@Check('vehicle_categories_per_minute_rate_minor_check', `per_minute_rate_minor >= 0`)
@Check('vehicle_categories_minimum_fare_minor_check', `minimum_fare_minor >= 0`)
export class VehicleCategoryEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 32, unique: true })
  code!: string;

  @Column({ type: 'varchar', length: 60 })
  name!: string;

  @Column({ type: 'varchar', length: 300, default: '' })
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

  @Column({ name: 'sort_order', type: 'int', default: 0 })
  sortOrder!: number;

  @Column({ name: 'is_active', type: 'boolean', default: true })
  isActive!: boolean;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
