import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { dtoOf } from '../../../common/http/read-model-openapi';
import { BidResponseDto } from '../bids/bid-view';
import { ESTIMATE, EstimateView } from '../pricing/fare-estimate';
import { RideResponseDto } from '../read-models/ride-view';

// The Ride, Bid and estimate schemas are derived from their read-model declarations (RIDE, BID,
// ESTIMATE): the document cannot drift from what the endpoints send. Only the envelopes are here.
export { BidResponseDto, RideResponseDto };

/** One fare estimate (money in major units, 2 decimals). */
export const EstimateResponseDto = dtoOf(ESTIMATE);
export type EstimateResponseDto = EstimateView;

export class EstimateListResponseDto {
  @ApiProperty({ type: [EstimateResponseDto], description: 'One per active category that fits passenger_count' })
  estimates!: EstimateResponseDto[];
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
