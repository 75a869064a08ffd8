import { ApiProperty } from '@nestjs/swagger';
import { RATED_BY, RatedBy, RideRatingView } from '../ride-rating.view';

/** The answer to POST /rides/{ride_id}/rating. */
export class RideRatingResponseDto implements RideRatingView {
  @ApiProperty({ format: 'uuid', example: '0b7e6a0e-4a8f-4c1e-9d65-2f1c3a7b9e10' }) ride_id!: string;
  @ApiProperty({ enum: RATED_BY, example: 'passenger', description: 'passenger: the passenger rated the driver; driver: the driver rated the passenger' })
  rated_by!: RatedBy;
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 5, example: 5 }) stars!: number;
  @ApiProperty({ type: 'string', nullable: true, example: 'Smooth ride, friendly driver' }) comment!: string | null;
  @ApiProperty({ example: '2026-11-22T05:18:38.000Z' }) created_at!: string;
}
