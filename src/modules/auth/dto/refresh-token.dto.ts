import { ApiProperty } from '@nestjs/swagger';
import { IsString, isString, MaxLength, maxLength } from 'class-validator';
import { registerFastValidation } from '../../../common/http/fast-validation';

export class RefreshTokenDto {
  @ApiProperty({ example: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9...', description: 'The current refresh token' })
  @IsString()
  @MaxLength(2048)
  refresh_token!: string;
}

// Refresh is a hot path: the same rules as the decorators above (see registerFastValidation).
registerFastValidation(RefreshTokenDto, {
  refresh_token: { test: (v) => isString(v) && maxLength(v, 2048) },
});
