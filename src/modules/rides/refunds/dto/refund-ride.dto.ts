import { ApiProperty } from '@nestjs/swagger';
import { IsNumber, Max, Min } from 'class-validator';
import { ReasonDto } from '../../../../common/http/reason.dto';
import { AtMostTwoDecimals, MAX_AMOUNT } from '../../dto/money-amount.validators';

/** POST /admin/rides/{ride_id}/refunds (CONTRACT §12, §13). */
export class RefundRideDto extends ReasonDto {
  @ApiProperty({
    example: 5,
    description: 'Major units, at most 2 decimals; never more than the passenger paid for the ride (fare or fee, and tip) less earlier refunds',
  })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @AtMostTwoDecimals()
  @Min(0.01)
  @Max(MAX_AMOUNT)
  amount!: number;
}
