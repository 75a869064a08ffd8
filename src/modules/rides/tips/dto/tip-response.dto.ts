import { ApiProperty } from '@nestjs/swagger';
import type { Assert, Same } from '../../../../common/type-checks';
import type { TipView } from '../tip-view';

export class TipResponseDto {
  @ApiProperty({ format: 'uuid' }) ride_id!: string;
  @ApiProperty({ example: 2.5, description: 'Major units' }) amount!: number;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ example: '2026-11-22T05:18:38.000Z' }) created_at!: string;
}

export type TipResponseShapeCheck = Assert<Same<TipResponseDto, TipView>>;
