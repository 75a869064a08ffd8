import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsISO8601, IsNumber, IsOptional, Matches, Max, Min } from 'class-validator';
import { AtMostTwoDecimals, MAX_AMOUNT } from './money-amount.validators';
import { RideRequestFieldsDto, WITH_OFFSET } from '../../pricing/dto/ride-request-fields.dto';

export class BookRideDto extends RideRequestFieldsDto {
  @ApiProperty({ example: 1 })
  @IsInt()
  @Min(1)
  vehicle_category_id!: number;

  @ApiProperty({ enum: ['cash', 'wallet', 'card'], example: 'cash' })
  @IsIn(['cash', 'wallet', 'card'], { message: 'payment_method must be one of cash, wallet, card' })
  payment_method!: 'cash' | 'wallet' | 'card';

  @ApiPropertyOptional({
    example: 16,
    description:
      'The passenger’s own price in major units (at most 2 decimals): at least MIN_OFFER_PERCENT (default 70) % of the total ' +
      'of the estimate computed at booking (surge and promo included). Drivers see it and still bid; a bid equal to it takes it.',
  })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @AtMostTwoDecimals()
  @Min(0.01)
  @Max(MAX_AMOUNT)
  offered_fare?: number;
  // No example: one fixed time would soon be in the past, and "Try it out" must book as it stands.
  @ApiPropertyOptional({
    format: 'date-time',
    description:
      'Ride later: the pickup time, ISO 8601 with Z or an offset, 15 minutes to 7 days ahead. The ride starts `scheduled` and ' +
      'becomes `requested` DISPATCH_LEAD_MINUTES (default 15) before it; at most SCHEDULED_RIDES_PER_PASSENGER (default 3) at a time. ' +
      'Omit it for a ride now.',
  })
  @IsOptional()
  @IsISO8601({ strict: true })
  @Matches(WITH_OFFSET, { message: 'pickup_at must carry Z or a UTC offset (e.g. 2026-11-22T18:30:00Z or +01:00)' })
  pickup_at?: string;
}
