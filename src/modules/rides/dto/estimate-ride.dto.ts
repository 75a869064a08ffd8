import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, isIn, IsInt, isInt, IsOptional, Min, min } from 'class-validator';
import { registerFastValidation } from '../../../common/http/fast-validation';
import { RIDE_REQUEST_FAST_FIELDS, RideRequestFieldsDto } from './ride-request-fields.dto';

const PAYMENT_METHODS = ['cash', 'wallet'];

export class EstimateRideDto extends RideRequestFieldsDto {
  @ApiPropertyOptional({ example: 1, description: 'Omit to get one estimate per active category that fits the passengers' })
  @IsOptional()
  @IsInt()
  @Min(1)
  vehicle_category_id?: number;

  @ApiPropertyOptional({ enum: ['cash', 'wallet'], description: 'Accepted so that the booking body can be reused; not priced' })
  @IsOptional()
  @IsIn(PAYMENT_METHODS, { message: 'payment_method must be one of cash, wallet' })
  payment_method?: 'cash' | 'wallet';
}

// Estimate's hot path: the same rules as the decorators (see registerFastValidation).
registerFastValidation(EstimateRideDto, {
  ...RIDE_REQUEST_FAST_FIELDS,
  vehicle_category_id: { optional: true, test: (v) => isInt(v) && min(v, 1) },
  payment_method: { optional: true, test: (v) => isIn(v, PAYMENT_METHODS) },
});
