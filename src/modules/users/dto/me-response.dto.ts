import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DriverProfileResponseDto } from '../../drivers/dto/driver-response.dto';
import { RIDE_PIN_SETTINGS, RidePinSetting } from '../../rides/ride-pin-settings.port';
import { UserResponseDto } from './user-response.dto';

export class MeWalletDto {
  @ApiProperty({ example: 25.5, description: 'Major units, 2 decimals' }) balance!: number;
  @ApiProperty({ example: 'USD' }) currency!: string;
}

/** GET /auth/me: the public user, the wallet, and for drivers the driver record. */
export class MeResponseDto extends UserResponseDto {
  @ApiProperty({ type: MeWalletDto, nullable: true, description: 'null until registration creates the wallet' })
  wallet!: MeWalletDto | null;
  @ApiProperty({
    enum: RIDE_PIN_SETTINGS,
    example: 'off',
    description: 'Whether rides this passenger accepts carry a start PIN (CONTRACT §14): off, always, or night (accepted 21:00–06:00 in RIDE_PIN_TIMEZONE)',
  })
  ride_pin!: RidePinSetting;
  @ApiPropertyOptional({ type: DriverProfileResponseDto, nullable: true, description: 'Drivers only: the driver profile as GET /driver/profile returns it' })
  driver?: DriverProfileResponseDto | null;
}
