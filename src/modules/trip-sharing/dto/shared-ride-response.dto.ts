import { ApiProperty } from '@nestjs/swagger';
import type { Assert, Same } from '../../../common/type-checks';
import { RIDE_STATUSES, RideStatus } from '../../rides/ride-status';
import type { SharedDriverView, SharedRideView } from '../shared-ride.view';

class SharedPlaceDto {
  @ApiProperty({ example: 'Alexanderplatz 1, Berlin' }) address!: string;
  @ApiProperty({ example: 52.5219 }) latitude!: number;
  @ApiProperty({ example: 13.4132 }) longitude!: number;
}

class SharedDriverDto implements SharedDriverView {
  @ApiProperty({ type: String, nullable: true, example: 'Dana' }) first_name!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'Toyota' }) vehicle_make!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'Corolla' }) vehicle_model!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'White' }) vehicle_color!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'B-RH 1234' }) vehicle_plate!: string | null;
  @ApiProperty({ type: Number, nullable: true, example: 4.87, description: "The passengers' average; null until rated" }) rating!: number | null;
}

class SharedDriverLocationDto {
  @ApiProperty({ example: 52.5201 }) latitude!: number;
  @ApiProperty({ example: 13.4101 }) longitude!: number;
  @ApiProperty({ example: '2026-11-22T05:18:38.000Z', description: "The driver's latest heartbeat" }) at!: string;
}

/** GET /shared-rides/{token}: no phone, e-mail, user id or passenger name, ever. */
export class SharedRideResponseDto {
  @ApiProperty({ enum: RIDE_STATUSES, example: 'started' }) status!: RideStatus;
  @ApiProperty({ type: SharedPlaceDto }) pickup!: SharedPlaceDto;
  @ApiProperty({ type: SharedPlaceDto }) dropoff!: SharedPlaceDto;
  @ApiProperty({ type: SharedDriverDto, nullable: true, description: 'null before a driver accepted' }) driver!: SharedDriverDto | null;
  @ApiProperty({ type: SharedDriverLocationDto, nullable: true, description: 'While a driver is on the way or driving; null otherwise' })
  driver_location!: SharedDriverLocationDto | null;
  @ApiProperty({
    example: '2026-11-22T05:18:38.000Z',
    description: 'When the ride last changed (the link answers 404 from 30 minutes after the ride is final)',
  })
  updated_at!: string;
}

export type SharedRideResponseChecks = Assert<Same<SharedRideResponseDto, SharedRideView>>;
