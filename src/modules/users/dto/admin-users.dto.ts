import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { USER_ROLES, type UserRole } from '../../../common/auth/authenticated-user';
import { PageQueryDto } from '../../../common/http/page-query.dto';
import { DriverProfileResponseDto } from '../../drivers/dto/driver-response.dto';
import { MeWalletDto } from './me-response.dto';
import { UserResponseDto } from './user-response.dto';

export class AdminUsersQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ example: 'ada', description: 'Part of a phone number, e-mail address or name (case-insensitive)' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  query?: string;

  @ApiPropertyOptional({ enum: USER_ROLES })
  @IsOptional()
  @IsIn(USER_ROLES)
  role?: UserRole;
}

export class AdminUserPageResponseDto {
  @ApiProperty({ type: [UserResponseDto] }) items!: UserResponseDto[];
  @ApiProperty({ example: 1 }) page!: number;
  @ApiProperty({ example: 20 }) limit!: number;
  @ApiProperty({ example: 1 }) total!: number;
}

/** GET /admin/users/{id}: the user, the wallet and, for a driver, the driver record. */
export class AdminUserResponseDto {
  @ApiProperty({ type: UserResponseDto }) user!: UserResponseDto;
  @ApiProperty({ type: MeWalletDto, nullable: true, description: 'null until registration creates the wallet' })
  wallet!: MeWalletDto | null;
  @ApiProperty({ type: DriverProfileResponseDto, nullable: true, description: 'null for anyone but a driver' })
  driver!: DriverProfileResponseDto | null;
}
