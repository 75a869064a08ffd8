import { ApiProperty } from '@nestjs/swagger';
import { IsInt, IsNumber, Max, Min } from 'class-validator';
import { AtMostTwoDecimals, MAX_AMOUNT } from '../../dto/money-amount.validators';

export class SubmitBidDto {
  @ApiProperty({ example: 15.5, description: 'Major units, at most 2 decimals' })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @AtMostTwoDecimals()
  @Min(0.01)
  @Max(MAX_AMOUNT)
  amount!: number;

  @ApiProperty({ example: 4, description: 'Minutes until the driver reaches the pickup' })
  @IsInt()
  @Min(0)
  @Max(600)
  eta_minutes!: number;
}
