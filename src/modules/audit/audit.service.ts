import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuditEntryResponseDto, AuditPageResponseDto } from './dto/audit-entry-response.dto';
import { AuditQueryDto } from './dto/audit-query.dto';
import { AuditRepository } from './audit.repository';

/** Who asked for an operator write and why: an operator (their user id) or the CLI (`actorId` null). */
export interface AuditedBy {
  actorId: number | null;
  /** 3..500 characters (ReasonDto, the CLI's --reason); stored trimmed. */
  reason: string;
}

export interface AuditEntry extends AuditedBy {
  /** What was done, e.g. `users.block`, `drivers.approve`. */
  action: string;
  /** What it was done to: `user`, `driver`, `operator` and `wallet` are named by the user's id. */
  targetType: string;
  targetId: number | string;
  /** What else the entry should keep (an amount, the state before). */
  details?: Record<string, unknown>;
}

/**
 * The audit trail (CONTRACT §13). The module that owns a change records it, inside the change's own
 * transaction (`record` takes the caller's EntityManager), so there is never a change without its
 * entry or an entry without its change. The table refuses UPDATE, DELETE and TRUNCATE.
 */
@Injectable()
export class AuditService {
  constructor(private readonly audit: AuditRepository) {}

  async record(entry: AuditEntry, manager: EntityManager): Promise<void> {
    await this.audit.insert(
      {
        actorId: entry.actorId,
        action: entry.action,
        targetType: entry.targetType,
        targetId: String(entry.targetId),
        reason: entry.reason.trim(),
        details: entry.details ?? {},
      },
      manager,
    );
  }

  /** GET /admin/audit: newest first, optionally of one target or one actor. */
  async list(query: AuditQueryDto): Promise<AuditPageResponseDto> {
    const page = query.page ?? 1;
    const limit = query.limit ?? 20;
    const { rows, total } = await this.audit.findPage({ targetId: query.target_id, actorId: query.actor_id }, (page - 1) * limit, limit);
    return { items: rows.map((row) => AuditEntryResponseDto.from(row)), page, limit, total };
  }
}
