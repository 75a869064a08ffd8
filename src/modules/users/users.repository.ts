import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import type { UserRole } from '../../common/auth/authenticated-user';
import { UserEntity } from './entities/user.entity';

export interface UserAuthState {
  id: number;
  role: UserRole;
  isActive: boolean;
  isBlocked: boolean;
  isRegistered: boolean;
}

@Injectable()
export class UsersRepository {
  constructor(@InjectRepository(UserEntity) private readonly repo: Repository<UserEntity>) {}

  private r(manager?: EntityManager): Repository<UserEntity> {
    return manager ? manager.getRepository(UserEntity) : this.repo;
  }

  /** The few columns every authenticated request needs, by primary key. */
  async findAuthState(id: number): Promise<UserAuthState | undefined> {
    const rows: Array<{ id: number; role: UserRole; is_active: boolean; is_blocked: boolean; is_registered: boolean }> =
      await this.repo.query('SELECT id, role, is_active, is_blocked, is_registered FROM users WHERE id = $1', [id]);
    const row = rows[0];
    if (!row) return undefined;
    return { id: row.id, role: row.role, isActive: row.is_active, isBlocked: row.is_blocked, isRegistered: row.is_registered };
  }

  findById(id: number, manager?: EntityManager): Promise<UserEntity | null> {
    return this.r(manager).findOne({ where: { id } });
  }
}
