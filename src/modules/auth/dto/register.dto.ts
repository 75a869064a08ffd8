import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { ProfileFieldsDto } from '../../users/dto/profile-fields.dto';

/**
 * Completes the verified user's profile (the bearer of verify-otp's access token). A body phone or
 * e-mail must match the verified account's when it has one.
 */
export class RegisterDto extends ProfileFieldsDto {
  @ApiPropertyOptional({ example: '+15551234567', description: "Must match the verified account's phone when it has one" })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  phone?: string;

  @ApiPropertyOptional({ example: 'fcm:APA91bH...', description: 'Push-notification token, stored as the device token' })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  push_token?: string;

  /** Never `operator`: operators are made by an admin or the CLI (CONTRACT §13), so that is a 400 here. */
  @ApiProperty({ enum: ['passenger', 'driver'], example: 'passenger' })
  @IsIn(['passenger', 'driver'])
  role!: 'passenger' | 'driver';
}
