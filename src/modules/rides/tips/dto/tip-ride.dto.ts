import { ApiProperty } from '@nestjs/swagger';
import { IsNumber, Max, Min } from 'class-validator';
import { AtMostTwoDecimals, MAX_AMOUNT } from '../../dto/money-amount.validators';

export class TipRideDto {
  @ApiProperty({ example: 2.5, description: 'Major units, at most 2 decimals; paid from the passenger’s wallet' })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @AtMostTwoDecimals()
  @Min(0.01)
  @Max(MAX_AMOUNT)
  amount!: number;
}
