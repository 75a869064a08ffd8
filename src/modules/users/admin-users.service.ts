import { Injectable } from '@nestjs/common';
import type { AuditedBy } from '../audit/audit.service';
import { AdminUserPageResponseDto, AdminUserResponseDto, AdminUsersQueryDto } from './dto/admin-users.dto';
import { UserResponseDto } from './dto/user-response.dto';
import { UserError } from './users.errors';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

/** What operators see of and do to users under /api/v1/admin/users (CONTRACT §13). */
@Injectable()
export class AdminUsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly usersService: UsersService,
  ) {}

  async list(query: AdminUsersQueryDto): Promise<AdminUserPageResponseDto> {
    const page = query.page ?? 1;
    const limit = query.limit ?? 20;
    const { rows, total } = await this.users.findPage({ query: query.query, role: query.role }, (page - 1) * limit, limit);
    return { items: rows.map((row) => UserResponseDto.from(row)), page, limit, total };
  }

  async get(id: number): Promise<AdminUserResponseDto> {
    const row = await this.users.findPublicById(id);
    if (!row) throw new UserError('USER_NOT_FOUND');
    const [wallet, driver] = await Promise.all([this.usersService.findWallet(id), row.role === 'driver' ? this.usersService.findDriverProfile(id) : null]);
    return { user: UserResponseDto.from(row), wallet, driver };
  }

  /** As the CLI's user:block and user:unblock: one rule, in UsersService. */
  setBlocked(id: number, blocked: boolean, by: AuditedBy): Promise<UserResponseDto> {
    return this.usersService.setBlocked(id, blocked, by);
  }
}
