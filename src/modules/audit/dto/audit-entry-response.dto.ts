import { ApiProperty } from '@nestjs/swagger';
import type { AuditRow } from '../audit.repository';

/** Targets named by a user's id: an integer on the wire. Rides, promo codes and the rest: a string. */
const USER_ID_TARGETS: ReadonlySet<string> = new Set(['user', 'driver', 'operator', 'wallet']);

export class AuditEntryResponseDto {
  @ApiProperty({ example: 1812 }) id!: number;
  @ApiProperty({ type: 'integer', nullable: true, example: 7, description: 'The operator; null: the operator CLI' })
  actor_id!: number | null;
  @ApiProperty({ example: 'users.block' }) action!: string;
  @ApiProperty({ example: 'user', description: 'user, driver, operator and wallet targets are named by the user id' })
  target_type!: string;
  @ApiProperty({ oneOf: [{ type: 'integer' }, { type: 'string' }], example: 42, description: 'An integer for user ids, else a string' })
  target_id!: number | string;
  @ApiProperty({ example: 'Reported by three passengers for unsafe driving' }) reason!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, example: { previous_status: 'approved' } })
  details!: Record<string, unknown>;
  @ApiProperty({ example: '2026-11-22T05:18:38.000Z' }) created_at!: string;

  static from(row: AuditRow): AuditEntryResponseDto {
    return {
      id: Number(row.id),
      actor_id: row.actor_id,
      action: row.action,
      target_type: row.target_type,
      target_id: USER_ID_TARGETS.has(row.target_type) ? Number(row.target_id) : row.target_id,
      reason: row.reason,
      details: row.details,
      created_at: new Date(row.created_at).toISOString(),
    };
  }
}

export class AuditPageResponseDto {
  @ApiProperty({ type: [AuditEntryResponseDto] }) items!: AuditEntryResponseDto[];
  @ApiProperty({ example: 1 }) page!: number;
  @ApiProperty({ example: 20 }) limit!: number;
  @ApiProperty({ example: 1 }) total!: number;
}
