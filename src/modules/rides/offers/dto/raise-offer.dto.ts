import { ApiProperty } from '@nestjs/swagger';
import { IsNumber, Max, Min } from 'class-validator';
import { AtMostTwoDecimals, MAX_AMOUNT } from '../../dto/money-amount.validators';

export class RaiseOfferDto {
  @ApiProperty({ example: 18.5, description: 'The new price in major units (at most 2 decimals), higher than the current offer' })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @AtMostTwoDecimals()
  @Min(0.01)
  @Max(MAX_AMOUNT)
  offered_fare!: number;
}
