import { EMAIL_MAX_LENGTH } from '../contact';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

/** The profile fields a user supplies, at registration and in later profile updates. */
export class ProfileFieldsDto {
  @ApiPropertyOptional({ example: 'ada@example.com', description: 'Trimmed and lower-cased; must not belong to another user' })
  @IsOptional()
  @IsString()
  @MaxLength(EMAIL_MAX_LENGTH)
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

  @ApiPropertyOptional({
    description: 'PNG, JPEG or WebP image as base64 or a data: URL (size limit PROFILE_PICTURE_MAX_BYTES); replaces the current picture',
    example: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  profile_picture_base64?: string;
}
