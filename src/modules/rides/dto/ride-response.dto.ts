import type { Assert, Same } from '../../../common/type-checks';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RIDE_TYPES, RideType, EstimateView } from '../fare/fare-estimate';
import { RIDE_STATUSES, RideStatus } from '../ride-status';
import type { BidStatus, BidView } from '../views/bid-view';
import type { CancelledBy, PaymentMethod, RideView } from '../views/ride-view';

class LocationResponseDto {
  @ApiProperty({ example: 'Alexanderplatz 1, Berlin' }) address!: string;
  @ApiProperty({ example: 52.5219 }) latitude!: number;
  @ApiProperty({ example: 13.4132 }) longitude!: number;
}

class ReturnLocationResponseDto {
  @ApiProperty({ example: 'Alexanderplatz 1, Berlin', nullable: true, type: String }) address!: string | null;
  @ApiProperty({ example: 52.5219 }) latitude!: number;
  @ApiProperty({ example: 13.4132 }) longitude!: number;
}

export class FareBreakdownDto {
  @ApiProperty({ example: 2.5 }) base!: number;
  @ApiProperty({ example: 12.6 }) distance!: number;
  @ApiProperty({ example: 5.25 }) time!: number;
  @ApiProperty({ example: 20.35 }) subtotal!: number;
  @ApiProperty({ example: 6 }) minimum_fare!: number;
  @ApiProperty({ example: false }) minimum_fare_applied!: boolean;
  @ApiProperty({ example: 2.04 }) discount!: number;
  @ApiProperty({ example: 18.31 }) total!: number;
}

export class PromoResultDto {
  @ApiProperty({ example: 'WELCOME10' }) code!: string;
  @ApiProperty({ example: true }) applied!: boolean;
  @ApiProperty({ example: null, nullable: true, type: String, description: 'Why the code did not apply' }) reason!: string | null;
  @ApiProperty({ example: 2.04 }) discount!: number;
}

/** One fare estimate (money in major units, 2 decimals). */
export class EstimateResponseDto {
  @ApiProperty({ example: 1 }) vehicle_category_id!: number;
  @ApiProperty({ example: 'one_way', enum: RIDE_TYPES }) ride_type!: RideType;
  @ApiProperty({ example: 10.5 }) distance_km!: number;
  @ApiProperty({ example: 21 }) duration_minutes!: number;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ type: FareBreakdownDto }) breakdown!: FareBreakdownDto;
  @ApiProperty({ type: PromoResultDto, nullable: true }) promo!: PromoResultDto | null;
}

export class EstimateListResponseDto {
  @ApiProperty({ type: [EstimateResponseDto], description: 'One per active category that fits passenger_count' })
  estimates!: EstimateResponseDto[];
}

export class VehicleResponseDto {
  @ApiProperty({ example: 1, nullable: true, type: Number }) category_id!: number | null;
  @ApiProperty({ example: 'Toyota', nullable: true, type: String }) make!: string | null;
  @ApiProperty({ example: 'Corolla', nullable: true, type: String }) model!: string | null;
  @ApiProperty({ example: 'B-RH 1234', nullable: true, type: String }) plate!: string | null;
  @ApiProperty({ example: 'White', nullable: true, type: String }) color!: string | null;
  @ApiProperty({ example: 2021, nullable: true, type: Number }) year!: number | null;
}

export class DriverPublicDto {
  @ApiProperty({ example: 7 }) id!: number;
  @ApiProperty({ example: 'Dana', nullable: true, type: String }) first_name!: string | null;
  @ApiProperty({ example: 'Smith', nullable: true, type: String }) last_name!: string | null;
  @ApiProperty({ nullable: true, type: String }) profile_picture!: string | null;
  @ApiProperty({ example: 4.9, nullable: true, type: Number }) rating!: number | null;
  @ApiProperty({ type: VehicleResponseDto }) vehicle!: VehicleResponseDto;
}

export class PassengerPublicDto {
  @ApiProperty({ example: 3 }) id!: number;
  @ApiProperty({ example: 'Paula', nullable: true, type: String }) first_name!: string | null;
  @ApiProperty({ example: 'Jones', nullable: true, type: String }) last_name!: string | null;
  @ApiProperty({ nullable: true, type: String }) profile_picture!: string | null;
}

/** The Ride object of CONTRACT.md 4a (also the `ride` of every WebSocket event). */
export class RideResponseDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ example: 'K7M2QX' }) ride_code!: string;
  @ApiProperty({ enum: RIDE_STATUSES }) status!: RideStatus;
  @ApiProperty({ enum: RIDE_TYPES }) ride_type!: RideType;
  @ApiProperty({ type: LocationResponseDto }) pickup!: LocationResponseDto;
  @ApiProperty({ type: LocationResponseDto }) dropoff!: LocationResponseDto;
  @ApiProperty({ type: ReturnLocationResponseDto, nullable: true }) return_location!: ReturnLocationResponseDto | null;
  @ApiProperty({ example: 1 }) vehicle_category_id!: number;
  @ApiProperty({ example: 1 }) passenger_count!: number;
  @ApiProperty({ example: 0 }) children!: number;
  @ApiProperty({ enum: ['cash', 'wallet'] }) payment_method!: PaymentMethod;
  @ApiProperty({ nullable: true, type: Number }) duration_minutes!: number | null;
  @ApiProperty({ nullable: true, type: String }) end_scheduled_at!: string | null;
  @ApiProperty({ nullable: true, type: String }) return_scheduled_at!: string | null;
  @ApiProperty({ nullable: true, type: String }) promo_code!: string | null;
  @ApiProperty({ type: EstimateResponseDto, description: 'The fare estimate stored at booking' }) estimate!: EstimateResponseDto;
  @ApiProperty({ nullable: true, type: Number, example: 15.5, description: 'The accepted bid amount; null before acceptance' })
  fare!: number | null;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ type: PassengerPublicDto, nullable: true }) passenger!: PassengerPublicDto | null;
  @ApiProperty({ type: DriverPublicDto, nullable: true, description: 'null before acceptance' }) driver!: DriverPublicDto | null;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) accepted_bid_id!: string | null;
  @ApiProperty({ nullable: true, enum: ['passenger', 'driver'] }) cancelled_by!: CancelledBy | null;
  @ApiProperty({ nullable: true, type: String }) cancel_reason!: string | null;
  @ApiProperty() expires_at!: string;
  @ApiProperty({ nullable: true, type: String }) accepted_at!: string | null;
  @ApiProperty({ nullable: true, type: String }) arrived_at!: string | null;
  @ApiProperty({ nullable: true, type: String }) started_at!: string | null;
  @ApiProperty({ nullable: true, type: String }) completed_at!: string | null;
  @ApiProperty({ nullable: true, type: String }) cancelled_at!: string | null;
  @ApiProperty() created_at!: string;
  @ApiProperty() updated_at!: string;
}

/** The Bid object of CONTRACT.md 4a. */
export class BidResponseDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) ride_id!: string;
  @ApiProperty({ type: DriverPublicDto }) driver!: DriverPublicDto;
  @ApiProperty({ example: 15.5 }) amount!: number;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ example: 4 }) eta_minutes!: number;
  @ApiProperty({ nullable: true, type: Number, example: 1.2, description: "From the driver's last location to the pickup" })
  distance_km!: number | null;
  @ApiProperty({ enum: ['pending', 'accepted', 'rejected', 'withdrawn'] }) status!: BidStatus;
  @ApiProperty() created_at!: string;
  @ApiProperty() updated_at!: string;
}

export class ActiveRideResponseDto {
  @ApiProperty({ type: RideResponseDto, nullable: true, description: 'null when the user has no non-final ride' })
  ride!: RideResponseDto | null;
  @ApiPropertyOptional({ type: [BidResponseDto], description: 'Passenger, ride requested: its pending bids, cheapest first' })
  bids?: BidResponseDto[];
}

export class RideHistoryResponseDto {
  @ApiProperty({ type: [RideResponseDto] }) items!: RideResponseDto[];
  @ApiProperty({ example: 1 }) page!: number;
  @ApiProperty({ example: 20 }) limit!: number;
  @ApiProperty({ example: 42 }) total!: number;
}

// The DTOs describe the read models exactly (both ways): a field added, dropped or retyped on one
// side and not the other fails the build.
export type ResponseShapeChecks = [
  Assert<Same<RideResponseDto, RideView>>,
  Assert<Same<BidResponseDto, BidView>>,
  Assert<Same<EstimateResponseDto, EstimateView>>,
];
