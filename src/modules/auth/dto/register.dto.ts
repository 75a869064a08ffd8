import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import type { UserRole } from '../../../common/auth/authenticated-user';

/** Completes the verified user's profile (the bearer of verify-otp's access token). */
export class RegisterDto {
  @ApiPropertyOptional({ example: '+15551234567', description: "Must match the verified account's phone when it has one" })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  phone?: string;

  @ApiPropertyOptional({ example: 'ada@example.com', description: "Must match the verified account's e-mail when it has one" })
  @IsOptional()
  @IsString()
  @MaxLength(320)
  email?: string;

  @ApiPropertyOptional({ example: 'Ada' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  first_name?: string;

  @ApiPropertyOptional({ example: 'Lovelace' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  last_name?: string;

  @ApiPropertyOptional({ example: 'fcm:APA91bH...', description: 'Push-notification token, stored as the device token' })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  push_token?: string;

  @ApiPropertyOptional({
    description: 'Optional PNG, JPEG or WebP image as base64 or a data: URL (size limit PROFILE_PICTURE_MAX_BYTES)',
    example: 'data:image/png;base64,iVBORw0KGgo...',
  })
  @IsOptional()
  @IsString()
  profile_picture_base64?: string;

  @ApiProperty({ enum: ['passenger', 'driver'], example: 'passenger' })
  @IsIn(['passenger', 'driver'])
  role!: UserRole;
}
