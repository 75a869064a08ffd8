import { ApiProperty } from '@nestjs/swagger';
import { RideMessageResponseDto } from '../ride-message-view';

export { RideMessageResponseDto };

export class RideMessagePageResponseDto {
  @ApiProperty({ type: [RideMessageResponseDto], description: 'Oldest first' }) items!: RideMessageResponseDto[];
  @ApiProperty({ example: 1 }) page!: number;
  @ApiProperty({ example: 20 }) limit!: number;
  @ApiProperty({ example: 2 }) total!: number;
}
