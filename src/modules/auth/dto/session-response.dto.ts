import { ApiProperty } from '@nestjs/swagger';
import { UserResponseDto } from '../../users/dto/user-response.dto';
import { TokenPairResponseDto } from './token-pair-response.dto';

/** POST /auth/register and POST /auth/login. */
export class SessionResponseDto extends TokenPairResponseDto {
  @ApiProperty({ type: UserResponseDto }) user!: UserResponseDto;
}

/** POST /auth/verify-otp: is_registered sends the app to register (false) or home (true). */
export class VerifyOtpResponseDto extends SessionResponseDto {
  @ApiProperty({ example: false }) is_registered!: boolean;
}
