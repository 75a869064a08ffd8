import { Injectable } from '@nestjs/common';
import { isUniqueViolation } from '../../common/database/sql-results';
import { EventBus } from '../../common/events/event-bus';
import type { OperatorRole } from '../../common/auth/operator-permissions';
import { AuditedBy, AuditService } from '../audit/audit.service';
import { normalizeEmail } from './contact';
import { OperatorResponseDto } from './dto/operator-response.dto';
import { OperatorAccountsRepository } from './operator-accounts.repository';
import { UserError } from './users.errors';

/**
 * Operator accounts (CONTRACT §13): made by an admin or `npm run cli -- operator:add`, each write
 * recorded in the audit trail in its own transaction. An operator signs in with a code sent to the
 * e-mail (send-otp, verify-otp), like anyone else; what the token may reach is OperatorGuard's.
 */
@Injectable()
export class OperatorAccountsService {
  constructor(
    private readonly operators: OperatorAccountsRepository,
    private readonly audit: AuditService,
    private readonly events: EventBus,
  ) {}

  /**
   * A complete account holding the e-mail is refused (409 Email already in use): it is somebody's.
   * A pending sign-up holding it (send-otp, never registered) is replaced: it holds nothing yet, and
   * keeping it would keep whatever phone it named as a second way into an operator account.
   */
  async add(rawEmail: string, role: OperatorRole, by: AuditedBy): Promise<OperatorResponseDto> {
    const email = normalizeEmail(rawEmail);
    let replaced: number | undefined;
    try {
      const row = await this.operators.runInTransaction(async (manager) => {
        const holder = await this.operators.lockByEmail(email, manager);
        if (holder?.is_registered) throw new UserError('EMAIL_IN_USE');
        if (holder) {
          await this.operators.delete(holder.id, manager);
          replaced = holder.id;
        }
        const created = await this.operators.insert(email, role, manager);
        await this.audit.record(
          { ...by, action: 'operators.add', targetType: 'operator', targetId: created.id, details: { email, operator_role: role } },
          manager,
        );
        return created;
      });
      if (replaced !== undefined) this.events.publish('user.access_revoked', { user_id: replaced, reason: 'deleted' });
      return OperatorResponseDto.from(row);
    } catch (err) {
      // Two adds of one address at once: the unique e-mail decides.
      if (isUniqueViolation(err)) throw new UserError('EMAIL_IN_USE');
      throw err;
    }
  }

  async list(): Promise<OperatorResponseDto[]> {
    return (await this.operators.findAll()).map((row) => OperatorResponseDto.from(row));
  }

  /**
   * Removes the account: its tokens stop working at once (the user no longer exists) and its live
   * sockets close with 4403. Its audit entries stay. An admin cannot remove their own account, so
   * the API always keeps at least one admin who can manage operators.
   */
  async remove(id: number, by: AuditedBy): Promise<void> {
    if (id === by.actorId) throw new UserError('OPERATOR_SELF_REMOVAL');
    await this.operators.runInTransaction(async (manager) => {
      const row = await this.operators.lockById(id, manager);
      if (!row) throw new UserError('OPERATOR_NOT_FOUND');
      await this.operators.delete(id, manager);
      await this.audit.record(
        { ...by, action: 'operators.remove', targetType: 'operator', targetId: id, details: { email: row.email, operator_role: row.operator_role } },
        manager,
      );
    });
    this.events.publish('user.access_revoked', { user_id: id, reason: 'deleted' });
  }
}
