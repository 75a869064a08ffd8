import { ApiProperty } from '@nestjs/swagger';

/** POST /auth/refresh-token. */
export class TokenPairResponseDto {
  @ApiProperty({ example: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9...' }) access_token!: string;
  @ApiProperty({ example: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9...', description: 'Replaces the previous one, which stops working' })
  refresh_token!: string;
  @ApiProperty({ example: 'bearer', enum: ['bearer'] }) token_type!: 'bearer';
  @ApiProperty({ example: 900, description: 'Access token lifetime in seconds' }) expires_in!: number;
}
