import { ApiProperty } from '@nestjs/swagger';
import { IsNumber, Max, Min } from 'class-validator';
import { AtMostTwoDecimals, MAX_AMOUNT } from '../../../common/http/money-amount.validators';

export class RequestPayoutDto {
  @ApiProperty({ example: 25.5, description: 'Major units, at most 2 decimals; at least PAYOUT_MINIMUM (default 10.00) and at most the wallet balance' })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @AtMostTwoDecimals()
  @Min(0.01)
  @Max(MAX_AMOUNT)
  amount!: number;
}
