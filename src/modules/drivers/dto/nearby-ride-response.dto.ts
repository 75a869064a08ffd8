import { ApiProperty } from '@nestjs/swagger';
import { RideResponseDto } from '../../rides/dto/ride-response.dto';

/** A ride in the nearby list: the ride as everywhere else, plus how far its pickup is from the point asked about. */
export class NearbyRideResponseDto extends RideResponseDto {
  @ApiProperty({ example: 1.27, description: 'Straight-line distance in km from the point asked about to the pickup, 2 decimals' })
  distance_km!: number;
}
