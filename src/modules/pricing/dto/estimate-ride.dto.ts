import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, Min } from 'class-validator';
import { RideRequestFieldsDto } from './ride-request-fields.dto';

const PAYMENT_METHODS = ['cash', 'wallet', 'card'];

export class EstimateRideDto extends RideRequestFieldsDto {
  @ApiPropertyOptional({ example: 1, description: 'Omit to get one estimate per active category that fits the passengers' })
  @IsOptional()
  @IsInt()
  @Min(1)
  vehicle_category_id?: number;

  @ApiPropertyOptional({ enum: ['cash', 'wallet', 'card'], description: 'Accepted so that the booking body can be reused; not priced' })
  @IsOptional()
  @IsIn(PAYMENT_METHODS, { message: 'payment_method must be one of cash, wallet, card' })
  payment_method?: 'cash' | 'wallet' | 'card';
}
