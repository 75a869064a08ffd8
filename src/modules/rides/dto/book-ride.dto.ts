import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsInt, Min } from 'class-validator';
import { RideRequestFieldsDto } from './ride-request-fields.dto';

export class BookRideDto extends RideRequestFieldsDto {
  @ApiProperty({ example: 1 })
  @IsInt()
  @Min(1)
  vehicle_category_id!: number;

  @ApiProperty({ enum: ['cash', 'wallet'], example: 'cash' })
  @IsIn(['cash', 'wallet'], { message: 'payment_method must be one of cash, wallet' })
  payment_method!: 'cash' | 'wallet';
}
