import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import type { RideStatus } from '../repositories/ride-writes.repository';

export const RIDE_STATUSES: RideStatus[] = ['requested', 'accepted', 'driver_arrived', 'started', 'completed', 'cancelled', 'expired'];

export class UpdateRideStatusDto {
  @ApiProperty({ enum: ['driver_arrived', 'started', 'completed'], description: 'The next status (one step forward)' })
  @IsIn(RIDE_STATUSES, { message: `status must be one of ${RIDE_STATUSES.join(', ')}` })
  status!: RideStatus;
}
