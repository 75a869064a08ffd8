import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { OperatorRole } from '../../common/auth/operator-permissions';

export interface OperatorRow {
  id: number;
  email: string;
  operator_role: OperatorRole;
  first_name: string | null;
  last_name: string | null;
  created_at: Date;
}

const COLUMNS = 'id, email, operator_role, first_name, last_name, created_at';

/** Operator accounts: rows of `users` (users owns the table) with role `operator`. */
@Injectable()
export class OperatorAccountsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Whoever holds the e-mail now, locked until the transaction ends. */
  async lockByEmail(email: string, manager: EntityManager): Promise<{ id: number; is_registered: boolean } | undefined> {
    const rows = await manager.query(`SELECT id, is_registered FROM users WHERE email = $1 FOR UPDATE`, [email]);
    return rows[0];
  }

  /**
   * A complete account that signs in by e-mail code only: no phone, so no second way in. The
   * address counts as unverified until the operator's first verify-otp proves it.
   */
  async insert(email: string, role: OperatorRole, manager: EntityManager): Promise<OperatorRow> {
    const rows = await manager.query(
      `INSERT INTO users (email, role, operator_role, is_registered, registered_at) VALUES ($1, 'operator', $2, true, now())
       RETURNING ${COLUMNS}`,
      [email, role],
    );
    return rows[0];
  }

  async lockById(id: number, manager: EntityManager): Promise<OperatorRow | undefined> {
    const rows = await manager.query(`SELECT ${COLUMNS} FROM users WHERE id = $1 AND role = 'operator' FOR UPDATE`, [id]);
    return rows[0];
  }

  findAll(): Promise<OperatorRow[]> {
    return this.dataSource.query(`SELECT ${COLUMNS} FROM users WHERE role = 'operator' ORDER BY id`);
  }

  async delete(id: number, manager: EntityManager): Promise<void> {
    await manager.query(`DELETE FROM users WHERE id = $1`, [id]);
  }

  runInTransaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }
}
