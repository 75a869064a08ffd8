import { ApiProperty } from '@nestjs/swagger';
import type { Assert, Same } from '../../../common/type-checks';
import type { RefundView } from '../ride-payments/refunds.service';

/** A refund (CONTRACT §12), for the operator endpoint of §13. */
export class RefundResponseDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) ride_id!: string;
  @ApiProperty({ example: 5, description: 'Major units' }) amount!: number;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ example: '2026-11-22T05:18:38.000Z' }) created_at!: string;
}

export type RefundResponseShapeCheck = Assert<Same<RefundResponseDto, RefundView>>;
