import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AdminAuditController } from './admin-audit.controller';
import { AuditRepository } from './audit.repository';
import { AuditService } from './audit.service';
import { AuditLogEntryEntity } from './entities/audit-log-entry.entity';

/** The audit trail: the bottom layer, so every module that owns a change can record it. */
@Module({
  imports: [TypeOrmModule.forFeature([AuditLogEntryEntity])],
  controllers: [AdminAuditController],
  providers: [AuditRepository, AuditService],
  exports: [AuditService],
})
export class AuditModule {}
