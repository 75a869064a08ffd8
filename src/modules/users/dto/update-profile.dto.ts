import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { RIDE_PIN_SETTINGS, RidePinSetting } from '../../rides/ride-pin-settings.port';
import { ProfileFieldsDto } from './profile-fields.dto';

/** Partial update: each field is applied only when supplied. Role, phone and account flags cannot be changed here. */
export class UpdateProfileDto extends ProfileFieldsDto {
  @ApiPropertyOptional({
    enum: RIDE_PIN_SETTINGS,
    description: 'Start PIN on rides accepted from now on (CONTRACT §14): off, always, or night (21:00–06:00 in RIDE_PIN_TIMEZONE)',
  })
  @IsOptional()
  @IsIn(RIDE_PIN_SETTINGS, { message: `ride_pin must be one of ${RIDE_PIN_SETTINGS.join(', ')}` })
  ride_pin?: RidePinSetting;
}
