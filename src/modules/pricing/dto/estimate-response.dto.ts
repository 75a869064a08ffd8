import { ApiProperty } from '@nestjs/swagger';
import { dtoOf } from '../../../common/http/read-model-openapi';
import { ESTIMATE, EstimateView } from '../fare-estimate';

// The schema is derived from the read-model declaration (ESTIMATE): the document cannot drift from
// what the endpoint sends. Rides embed the same object (RideResponseDto.estimate).

/** One fare estimate (money in major units, 2 decimals). */
export const EstimateResponseDto = dtoOf(ESTIMATE);
export type EstimateResponseDto = EstimateView;

export class EstimateListResponseDto {
  @ApiProperty({ type: [EstimateResponseDto], description: 'One per active category that fits passenger_count' })
  estimates!: EstimateResponseDto[];
}
