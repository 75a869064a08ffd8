import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { PageQueryDto } from '../../../../common/http/page-query.dto';
import { RideResponseDto } from '../../dto/ride-response.dto';
import { PAYMENT_STATUSES, PaymentStatus } from '../../read-models/ride-view';
import { RIDE_STATUSES, RideStatus } from '../../ride-status';

/** A card ride's payment status (CONTRACT §12); cash and wallet rides have none. */
export const RIDE_PAYMENT_STATUSES = PAYMENT_STATUSES;
export type RidePaymentStatus = PaymentStatus;

const ACTOR_ROLES = ['passenger', 'driver', 'system', 'operator'] as const;

export class AdminRidesQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: RIDE_STATUSES })
  @IsOptional()
  @IsIn(RIDE_STATUSES, { message: `status must be one of ${RIDE_STATUSES.join(', ')}` })
  status?: RideStatus;

  @ApiPropertyOptional({
    enum: RIDE_PAYMENT_STATUSES,
    description: 'Card rides whose payment is at this status (cash and wallet rides have none)',
  })
  @IsOptional()
  @IsIn(RIDE_PAYMENT_STATUSES, { message: `payment_status must be one of ${RIDE_PAYMENT_STATUSES.join(', ')}` })
  payment_status?: RidePaymentStatus;

  @ApiPropertyOptional({ example: 12, description: "The passenger's user id" })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(2_147_483_647)
  passenger_id?: number;

  @ApiPropertyOptional({ example: 7, description: "The driver's user id" })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(2_147_483_647)
  driver_id?: number;
}

export class AdminRidePageResponseDto {
  @ApiProperty({ type: [RideResponseDto] }) items!: RideResponseDto[];
  @ApiProperty({ example: 1 }) page!: number;
  @ApiProperty({ example: 20 }) limit!: number;
  @ApiProperty({ example: 42 }) total!: number;
}

export class RideHistoryEventDto {
  @ApiProperty({ enum: RIDE_STATUSES, example: 'cancelled', description: 'The status the ride reached' })
  type!: RideStatus;
  @ApiProperty({
    enum: ACTOR_ROLES,
    example: 'operator',
    description: 'Who acted: the passenger, the driver, the platform (a sweep) or an operator',
  })
  actor!: (typeof ACTOR_ROLES)[number];
  @ApiProperty({ type: 'integer', nullable: true, example: 3, description: "The acting user's id; null for the platform" })
  actor_id!: number | null;
  @ApiProperty({
    type: 'string',
    nullable: true,
    example: 'Passenger asked support to cancel',
    description: 'Why, when given (a cancellation)',
  })
  reason!: string | null;
  @ApiProperty({ example: '2026-01-01T12:00:00.000Z' })
  at!: string;
}

export class AdminRideResponseDto extends RideResponseDto {
  @ApiProperty({ type: [RideHistoryEventDto], description: "The ride's history, oldest first" })
  events!: RideHistoryEventDto[];
}
