import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { SendOtpDto } from './send-otp.dto';

export class VerifyOtpDto extends SendOtpDto {
  @ApiProperty({ example: '123456', description: 'The code from send-otp (surrounding spaces are ignored)' })
  @IsString()
  @MaxLength(32)
  otp!: string;
}
