import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PageQueryDto } from '../../../common/http/page-query.dto';
import { RIDE_STATUSES, RideStatus } from '../ride-status';

export class RideHistoryQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: RIDE_STATUSES })
  @IsOptional()
  @IsIn(RIDE_STATUSES, { message: `status must be one of ${RIDE_STATUSES.join(', ')}` })
  status?: RideStatus;
}
