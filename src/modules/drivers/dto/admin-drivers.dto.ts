import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PageQueryDto } from '../../../common/http/page-query.dto';
import type { DriverProfileView } from '../driver-profile.view';
import { DriverProfileResponseDto } from './driver-response.dto';

const STATUSES = ['pending', 'approved', 'rejected', 'suspended'] as const;

export class AdminDriversQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: STATUSES, description: 'Only drivers with this approval status (pending: waiting for a decision)' })
  @IsOptional()
  @IsIn(STATUSES)
  status?: (typeof STATUSES)[number];
}

export class AdminDriverPageResponseDto {
  @ApiProperty({ type: [DriverProfileResponseDto] }) items!: DriverProfileView[];
  @ApiProperty({ example: 1 }) page!: number;
  @ApiProperty({ example: 20 }) limit!: number;
  @ApiProperty({ example: 1 }) total!: number;
}
