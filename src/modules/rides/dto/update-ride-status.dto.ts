import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { RIDE_STATUSES, RideStatus } from '../ride-status';

export class UpdateRideStatusDto {
  @ApiProperty({ enum: ['driver_arrived', 'started', 'completed'], description: 'The next status (one step forward)' })
  @IsIn(RIDE_STATUSES, { message: `status must be one of ${RIDE_STATUSES.join(', ')}` })
  status!: RideStatus;
}
