import { ApiProperty } from '@nestjs/swagger';
import type { Assert, Same } from '../../../common/type-checks';
import type { DriverEarningsView } from '../../rides/rides.service';
import type { DriverApprovalStatus } from '../drivers.repository';
import type { DriverProfileView, LocationAcceptedView } from '../driver-profile.view';

class DriverLocationDto {
  @ApiProperty({ example: 52.52 }) latitude!: number;
  @ApiProperty({ example: 13.405 }) longitude!: number;
  @ApiProperty({ nullable: true, type: Number }) heading!: number | null;
  @ApiProperty({ nullable: true, type: Number }) speed!: number | null;
  @ApiProperty({ nullable: true, type: Number }) accuracy!: number | null;
}

/** The driver profile of CONTRACT.md 4a. */
export class DriverProfileResponseDto {
  @ApiProperty({ example: 7 }) user_id!: number;
  @ApiProperty({ enum: ['pending', 'approved', 'rejected', 'suspended'] }) status!: DriverApprovalStatus;
  @ApiProperty() is_online!: boolean;
  @ApiProperty({ nullable: true, type: Number, description: 'null: serves every category' }) vehicle_category_id!: number | null;
  @ApiProperty({ nullable: true, type: String }) vehicle_make!: string | null;
  @ApiProperty({ nullable: true, type: String }) vehicle_model!: string | null;
  @ApiProperty({ nullable: true, type: String }) vehicle_plate!: string | null;
  @ApiProperty({ nullable: true, type: String }) vehicle_color!: string | null;
  @ApiProperty({ nullable: true, type: Number }) vehicle_year!: number | null;
  @ApiProperty({ nullable: true, type: String }) license_number!: string | null;
  @ApiProperty({ type: Number, nullable: true, example: 4.87, description: "The passengers' average, 2 decimals; null until rated" })
  rating!: number | null;
  @ApiProperty({ example: 23, description: 'How many passengers rated the driver' }) ratings_count!: number;
  @ApiProperty({ type: DriverLocationDto, nullable: true }) last_location!: DriverLocationDto | null;
  @ApiProperty({ nullable: true, type: String }) last_location_at!: string | null;
  @ApiProperty({ description: 'Stripe reports the linked payout account ready (POST /driver/payouts/account to link one)' })
  payouts_enabled!: boolean;
}

export class LocationAcceptedResponseDto {
  @ApiProperty({ example: 52.52 }) latitude!: number;
  @ApiProperty({ example: 13.405 }) longitude!: number;
  @ApiProperty({ nullable: true, type: Number }) heading!: number | null;
  @ApiProperty({ nullable: true, type: Number }) speed!: number | null;
  @ApiProperty({ nullable: true, type: Number }) accuracy!: number | null;
  @ApiProperty({ example: '2026-11-22T05:18:38.000Z' }) recorded_at!: string;
}

class EarningItemDto {
  @ApiProperty({ format: 'uuid' }) ride_id!: string;
  @ApiProperty({ example: 'K7M2QX' }) ride_code!: string;
  @ApiProperty({ enum: ['cash', 'wallet', 'card'] }) payment_method!: 'cash' | 'wallet' | 'card';
  @ApiProperty({ example: 15.5 }) fare!: number;
  @ApiProperty({ example: 1.55 }) commission!: number;
  @ApiProperty({ example: 13.95 }) earning!: number;
  @ApiProperty({ type: Number, nullable: true, example: 2.5, description: 'The tip on this ride; null when none' }) tip!: number | null;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty() pickup_address!: string;
  @ApiProperty() dropoff_address!: string;
  @ApiProperty() completed_at!: string;
}

/** Earnings (the driver's share after commission, plus tips) per UTC calendar period; weeks start on Monday. */
export class EarningsResponseDto {
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ example: 42.5 }) today!: number;
  @ApiProperty({ example: 120 }) this_week!: number;
  @ApiProperty({ example: 480.25 }) this_month!: number;
  @ApiProperty({ example: 1500, description: 'Earnings and tips, all time' }) total!: number;
  @ApiProperty({ example: 42.5, description: 'Tips received, all time (also counted in total and in each period)' }) tips!: number;
  @ApiProperty({ example: 87, description: 'Completed rides, all time' }) rides_count!: number;
  @ApiProperty({ type: [EarningItemDto] }) items!: EarningItemDto[];
  @ApiProperty({ example: 1 }) page!: number;
  @ApiProperty({ example: 20 }) limit!: number;
}

// The DTOs describe the read models exactly (see common/type-checks).
export type DriverResponseShapeChecks = [
  Assert<Same<DriverProfileResponseDto, DriverProfileView>>,
  Assert<Same<LocationAcceptedResponseDto, LocationAcceptedView>>,
  Assert<Same<EarningsResponseDto, DriverEarningsView>>,
];
