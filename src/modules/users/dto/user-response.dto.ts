import { ApiProperty } from '@nestjs/swagger';
import type { UserRole } from '../../../common/auth/authenticated-user';

/** The columns behind the public user, as raw SQL returns them. */
export interface PublicUserRow {
  id: number;
  phone: string | null;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  role: UserRole;
  is_verified: boolean;
  is_phone_verified: boolean;
  is_email_verified: boolean;
  is_active: boolean;
  is_blocked: boolean;
  profile_picture: string | null;
  created_at: Date | string;
}

/** SELECT list (or RETURNING list) for PublicUserRow; internal columns never appear in it. */
export const PUBLIC_USER_COLUMNS = `id, phone, email, first_name, last_name, role, is_verified, is_phone_verified,
  is_email_verified, is_active, is_blocked, profile_picture, created_at`;

/** The user as clients see it (CONTRACT.md section 4a); OTP, refresh token and device token never leave the service. */
export class UserResponseDto {
  @ApiProperty({ example: 42 }) id!: number;
  @ApiProperty({ type: String, nullable: true, example: '+15551234567', description: '+ and digits only' })
  phone!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'ada@example.com', description: 'Trimmed, lower-case' })
  email!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'Ada' }) first_name!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'Lovelace' }) last_name!: string | null;
  @ApiProperty({ enum: ['passenger', 'driver', 'operator'], example: 'passenger' }) role!: UserRole;
  @ApiProperty({ example: true }) is_verified!: boolean;
  @ApiProperty({ example: true }) is_phone_verified!: boolean;
  @ApiProperty({ example: false }) is_email_verified!: boolean;
  @ApiProperty({ example: true }) is_active!: boolean;
  @ApiProperty({ example: false }) is_blocked!: boolean;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'https://api.example.com/uploads/3f2a9c1e.png',
    description: 'URL of the stored profile picture',
  })
  profile_picture!: string | null;
  @ApiProperty({ example: '2026-11-22T05:18:38.000Z' }) created_at!: string;

  static from(row: PublicUserRow): UserResponseDto {
    return {
      id: row.id,
      phone: row.phone,
      email: row.email,
      first_name: row.first_name,
      last_name: row.last_name,
      role: row.role,
      is_verified: row.is_verified,
      is_phone_verified: row.is_phone_verified,
      is_email_verified: row.is_email_verified,
      is_active: row.is_active,
      is_blocked: row.is_blocked,
      profile_picture: row.profile_picture,
      created_at: new Date(row.created_at).toISOString(),
    };
  }
}
