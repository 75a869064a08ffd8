import { ApiProperty } from '@nestjs/swagger';

/** The code itself is never returned: it is delivered out of band (written to the server log). */
export class OtpSentResponseDto {
  @ApiProperty({ example: 'OTP sent' }) message!: string;
  @ApiProperty({ example: 300, description: 'Seconds until the code expires' }) expires_in!: number;
}
