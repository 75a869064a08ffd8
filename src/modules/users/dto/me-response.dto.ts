import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { UserResponseDto } from './user-response.dto';

export class MeWalletDto {
  @ApiProperty({ example: 25.5, description: 'Major units, 2 decimals' }) balance!: number;
  @ApiProperty({ example: 'USD' }) currency!: string;
}

export class LastLocationDto {
  @ApiProperty({ example: 52.52 }) latitude!: number;
  @ApiProperty({ example: 13.405 }) longitude!: number;
  @ApiProperty({ type: Number, nullable: true, example: 90 }) heading!: number | null;
  @ApiProperty({ type: Number, nullable: true, example: 8.3 }) speed!: number | null;
  @ApiProperty({ type: Number, nullable: true, example: 5 }) accuracy!: number | null;
}

/** The driver record (CONTRACT.md section 4a "Driver profile"). */
export class MeDriverDto {
  @ApiProperty({ example: 42 }) user_id!: number;
  @ApiProperty({ enum: ['pending', 'approved', 'rejected', 'suspended'], example: 'pending' }) status!: string;
  @ApiProperty({ example: false }) is_online!: boolean;
  @ApiProperty({ type: Number, nullable: true, example: 1 }) vehicle_category_id!: number | null;
  @ApiProperty({ type: String, nullable: true, example: 'Toyota' }) vehicle_make!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'Corolla' }) vehicle_model!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'B-XY 123' }) vehicle_plate!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'White' }) vehicle_color!: string | null;
  @ApiProperty({ type: Number, nullable: true, example: 2021 }) vehicle_year!: number | null;
  @ApiProperty({ type: String, nullable: true, example: 'L-123456' }) license_number!: string | null;
  @ApiProperty({ example: 5 }) rating!: number;
  @ApiProperty({ type: LastLocationDto, nullable: true }) last_location!: LastLocationDto | null;
  @ApiProperty({ type: String, nullable: true, example: '2026-11-22T05:18:38.000Z' }) last_location_at!: string | null;
}

/** GET /auth/me: the public user, the wallet, and for drivers the driver record. */
export class MeResponseDto extends UserResponseDto {
  @ApiProperty({ type: MeWalletDto, nullable: true, description: 'null until registration creates the wallet' })
  wallet!: MeWalletDto | null;
  @ApiPropertyOptional({ type: MeDriverDto, nullable: true, description: 'Drivers only' })
  driver?: MeDriverDto | null;
}
