import { ApiProperty } from '@nestjs/swagger';
import { OPERATOR_ROLES, type OperatorRole } from '../../../common/auth/operator-permissions';
import type { OperatorRow } from '../operator-accounts.repository';

export class OperatorResponseDto {
  @ApiProperty({ example: 7 }) id!: number;
  @ApiProperty({ example: 'ops@example.com' }) email!: string;
  @ApiProperty({ enum: OPERATOR_ROLES, example: 'support' }) operator_role!: OperatorRole;
  @ApiProperty({ type: String, nullable: true, example: 'Grace' }) first_name!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'Hopper' }) last_name!: string | null;
  @ApiProperty({ example: '2026-11-22T05:18:38.000Z' }) created_at!: string;

  static from(row: OperatorRow): OperatorResponseDto {
    return {
      id: row.id,
      email: row.email,
      operator_role: row.operator_role,
      first_name: row.first_name,
      last_name: row.last_name,
      created_at: new Date(row.created_at).toISOString(),
    };
  }
}

export class OperatorListResponseDto {
  @ApiProperty({ type: [OperatorResponseDto] }) items!: OperatorResponseDto[];
}
