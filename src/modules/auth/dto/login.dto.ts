import { EMAIL_MAX_LENGTH } from '../../users/contact';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

/**
 * No password: login needs a verify-otp success within LOGIN_OTP_WINDOW_MINUTES that no login has
 * used yet. email and phone are compared exactly as stored (phone as + and digits, e-mail lower-case).
 */
export class LoginDto {
  @ApiPropertyOptional({ example: 'ada@example.com' })
  @IsOptional()
  @IsString()
  @MaxLength(EMAIL_MAX_LENGTH)
  email?: string;

  @ApiPropertyOptional({ example: '+15551234567' })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  phone?: string;

  @ApiPropertyOptional({ example: 'fcm:APA91bH...', description: 'Stored as the device token' })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  push_token?: string;
}
