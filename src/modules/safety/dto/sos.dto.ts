import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsLatitude, IsLongitude, IsOptional } from 'class-validator';
import { PageQueryDto } from '../../../common/http/page-query.dto';

export const SOS_STATUSES = ['open', 'resolved'] as const;
export type SosStatus = (typeof SOS_STATUSES)[number];
export const SOS_RAISERS = ['passenger', 'driver'] as const;
export type SosRaiser = (typeof SOS_RAISERS)[number];
export const SOS_TEXT_STATUSES = ['pending', 'sent', 'failed'] as const;

/** POST /rides/{ride_id}/sos: where the raiser is, if the app knows (else the driver's last known position). */
export class RaiseSosDto {
  @ApiPropertyOptional({ example: 52.5219 })
  @IsOptional()
  @IsLatitude({ message: 'latitude must be a number from -90 to 90' })
  latitude?: number;

  @ApiPropertyOptional({ example: 13.4132 })
  @IsOptional()
  @IsLongitude({ message: 'longitude must be a number from -180 to 180' })
  longitude?: number;
}

/** POST /rides/{ride_id}/ride-check: the answer to a `ride_check` event. */
export class RideCheckAnswerDto {
  @ApiProperty({ example: true, description: 'true: all is well (204); false: raises an SOS (201 with it)' })
  @IsBoolean()
  ok!: boolean;
}

export class SosResponseDto {
  @ApiProperty({ example: 12 }) id!: number;
  @ApiProperty({ format: 'uuid' }) ride_id!: string;
  @ApiProperty({ enum: SOS_RAISERS, example: 'passenger' }) raised_by!: SosRaiser;
  @ApiProperty({ enum: SOS_STATUSES, example: 'open' }) status!: SosStatus;
  @ApiProperty({ type: Number, nullable: true, example: 52.5219 }) latitude!: number | null;
  @ApiProperty({ type: Number, nullable: true, example: 13.4132 }) longitude!: number | null;
  @ApiProperty({ example: '2026-11-27T19:30:00.000Z' }) created_at!: string;
}

export class SosTextResponseDto {
  @ApiProperty({ example: 'Sam Jones' }) name!: string;
  @ApiProperty({ example: '+15551230001' }) phone!: string;
  @ApiProperty({ enum: SOS_TEXT_STATUSES, description: 'pending: not yet delivered (retried); failed: given up' }) status!: 'pending' | 'sent' | 'failed';
  @ApiProperty({ example: 1 }) attempts!: number;
  @ApiProperty({ type: String, nullable: true, description: "The provider's last refusal" }) last_error!: string | null;
  @ApiProperty({ type: String, nullable: true }) sent_at!: string | null;
}

/** An alert as operators see it: who raised it, how it was resolved, and each text to the raiser's contacts. */
export class AdminSosResponseDto extends SosResponseDto {
  @ApiProperty({ example: 3 }) raised_by_user_id!: number;
  @ApiProperty({ enum: ['button', 'ride_check'], description: 'ride_check: the answer "not OK" to a ride check' }) source!: 'button' | 'ride_check';
  @ApiProperty({ type: String, nullable: true }) resolved_at!: string | null;
  @ApiProperty({ type: Number, nullable: true }) resolved_by!: number | null;
  @ApiProperty({ type: String, nullable: true }) resolution_reason!: string | null;
  @ApiProperty({ type: [SosTextResponseDto] }) texts!: SosTextResponseDto[];
}

export class AdminSosPageResponseDto {
  @ApiProperty({ type: [AdminSosResponseDto] }) items!: AdminSosResponseDto[];
  @ApiProperty({ example: 1 }) page!: number;
  @ApiProperty({ example: 20 }) limit!: number;
  @ApiProperty({ example: 1 }) total!: number;
}

export class AdminSosQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: SOS_STATUSES, description: 'open (newest first) or resolved; every alert when absent' })
  @IsOptional()
  @IsIn(SOS_STATUSES, { message: `status must be one of ${SOS_STATUSES.join(', ')}` })
  status?: SosStatus;
}
