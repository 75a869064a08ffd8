import { ApiProperty } from '@nestjs/swagger';
import { buildMessage, IsInt, IsNumber, Max, Min, ValidateBy } from 'class-validator';

/**
 * class-validator's `maxDecimalPlaces` reads `value.toString().split('.')[1]`, which is undefined for
 * numbers printed in exponent form (1e-7): a TypeError and a 500. Same rule, without the crash.
 */
function AtMostTwoDecimals(): PropertyDecorator {
  return ValidateBy({
    name: 'atMostTwoDecimals',
    validator: {
      validate: (value: unknown) => {
        if (typeof value !== 'number' || !Number.isFinite(value) || value % 1 === 0) return true; // IsNumber judges these
        const text = String(value);
        return !/e/i.test(text) && (text.split('.')[1] ?? '').length <= 2;
      },
      defaultMessage: buildMessage((prefix) => `${prefix}$property must have at most 2 decimal places`),
    },
  });
}

export class SubmitBidDto {
  @ApiProperty({ example: 15.5, description: 'Major units, at most 2 decimals' })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @AtMostTwoDecimals()
  @Min(0.01)
  @Max(100000)
  amount!: number;

  @ApiProperty({ example: 4, description: 'Minutes until the driver reaches the pickup' })
  @IsInt()
  @Min(0)
  @Max(600)
  eta_minutes!: number;
}
