import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class FieldErrorDto {
  @ApiProperty({ example: 'pickup.latitude' }) field!: string;
  @ApiProperty({ example: 'pickup.latitude must be a latitude string or number' }) message!: string;
}

/** The error shape of every 4xx and 5xx response (CONTRACT.md section 2). */
export class ErrorResponseDto {
  @ApiProperty({ example: 400 }) statusCode!: number;
  @ApiProperty({ example: 'Bad Request' }) error!: string;
  @ApiProperty({ example: 'Invalid OTP' }) message!: string;
  @ApiPropertyOptional({ type: [FieldErrorDto], description: 'Present on validation failures' })
  details?: FieldErrorDto[];
  @ApiPropertyOptional({ description: 'Present on 500s: quote it when reporting the problem' })
  correlation_id?: string;
}
