import { ApiProperty } from '@nestjs/swagger';
import { toMajor } from '../../../common/money';
import { VehicleCategoryEntity } from '../entities/vehicle-category.entity';

export class VehicleCategoryResponseDto {
  @ApiProperty({ example: 1 }) id!: number;
  @ApiProperty({ example: 'economy' }) code!: string;
  @ApiProperty({ example: 'Economy' }) name!: string;
  @ApiProperty({ example: 'Affordable everyday rides in compact cars' }) description!: string;
  @ApiProperty({ example: 4 }) max_passengers!: number;
  @ApiProperty({ example: 2, description: 'Number of suitcases' }) max_luggage!: number;
  @ApiProperty({ example: 300, description: 'Boot volume in litres' }) luggage_capacity!: number;
  @ApiProperty({ example: 2.5 }) base_fare!: number;
  @ApiProperty({ example: 1.2 }) per_km_rate!: number;
  @ApiProperty({ example: 0.25 }) per_minute_rate!: number;
  @ApiProperty({ example: 6 }) minimum_fare!: number;
  @ApiProperty({ example: 'USD' }) currency!: string;

  static from(category: VehicleCategoryEntity, currency: string): VehicleCategoryResponseDto {
    return {
      id: category.id,
      code: category.code,
      name: category.name,
      description: category.description,
      max_passengers: category.maxPassengers,
      max_luggage: category.maxLuggage,
      luggage_capacity: category.luggageCapacity,
      base_fare: toMajor(category.baseFareMinor),
      per_km_rate: toMajor(category.perKmRateMinor),
      per_minute_rate: toMajor(category.perMinuteRateMinor),
      minimum_fare: toMajor(category.minimumFareMinor),
      currency,
    };
  }
}
