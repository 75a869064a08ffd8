import { ApiProperty } from '@nestjs/swagger';
import { IsNumber, Max, Min, NotEquals } from 'class-validator';
import { AtMostTwoDecimals, MAX_AMOUNT } from '../../../common/http/money-amount.validators';
import { IsReason, REASON_MAX_CHARACTERS, REASON_MIN_CHARACTERS } from '../../../common/http/reason.dto';

export class AdjustWalletDto {
  @ApiProperty({
    example: -12.5,
    description: 'Major units, at most 2 decimals; positive credits the wallet from the platform account, negative debits it to the platform account',
    minimum: -MAX_AMOUNT,
    maximum: MAX_AMOUNT,
  })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @AtMostTwoDecimals()
  @NotEquals(0)
  @Min(-MAX_AMOUNT)
  @Max(MAX_AMOUNT)
  amount!: number;

  @ApiProperty({
    example: 'Double charge on ride K7Q2MX',
    minLength: REASON_MIN_CHARACTERS,
    maxLength: REASON_MAX_CHARACTERS,
    description: 'Why: recorded in the audit trail (trimmed)',
  })
  @IsReason()
  reason!: string;
}

export class WalletAdjustmentResponseDto {
  @ApiProperty({ example: 42 }) user_id!: number;
  @ApiProperty({ example: -12.5, description: 'The signed amount applied, major units' }) amount!: number;
  @ApiProperty({ example: 7.5, description: 'The balance after it, major units' }) balance!: number;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ format: 'uuid', description: 'The ledger transfer' }) transfer_id!: string;
}
