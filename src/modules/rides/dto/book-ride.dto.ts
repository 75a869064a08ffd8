import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsNumber, IsOptional, Max, Min } from 'class-validator';
import { AtMostTwoDecimals, MAX_AMOUNT } from './money-amount.validators';
import { RideRequestFieldsDto } from './ride-request-fields.dto';

export class BookRideDto extends RideRequestFieldsDto {
  @ApiProperty({ example: 1 })
  @IsInt()
  @Min(1)
  vehicle_category_id!: number;

  @ApiProperty({ enum: ['cash', 'wallet'], example: 'cash' })
  @IsIn(['cash', 'wallet'], { message: 'payment_method must be one of cash, wallet' })
  payment_method!: 'cash' | 'wallet';

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
}
