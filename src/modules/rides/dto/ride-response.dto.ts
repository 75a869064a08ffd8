import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { BidResponseDto } from '../bids/bid-view';
import { RideResponseDto } from '../read-models/ride-view';

// The Ride and Bid schemas are derived from their read-model declarations (RIDE, BID): the document
// cannot drift from what the endpoints send. Only the envelopes are here (the estimate's: pricing/dto/).
export { BidResponseDto, RideResponseDto };

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
