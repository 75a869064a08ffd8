import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { RIDE_STATUSES, RideStatus } from '../ride-status';

export class UpdateRideStatusDto {
  @ApiProperty({ enum: ['driver_arrived', 'started', 'completed'], description: 'The next status (one step forward)' })
  @IsIn(RIDE_STATUSES, { message: `status must be one of ${RIDE_STATUSES.join(', ')}` })
  status!: RideStatus;

  @ApiPropertyOptional({
    example: '0427',
    description: 'Starting a ride that has a start PIN: the 4 digits the passenger tells the driver (CONTRACT §14); ignored otherwise',
  })
  @IsOptional()
  @IsString()
  @MaxLength(16)
  pin?: string;
}
