import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { AdminWalletsController } from './admin-wallets.controller';
import { LedgerEntryEntity } from './entities/ledger-entry.entity';
import { WalletEntity } from './entities/wallet.entity';
import { WalletsController } from './wallets.controller';
import { WalletsRepository } from './wallets.repository';
import { WalletsService } from './wallets.service';

@Module({
  imports: [TypeOrmModule.forFeature([WalletEntity, LedgerEntryEntity]), AuditModule],
  controllers: [WalletsController, AdminWalletsController],
  providers: [WalletsRepository, WalletsService],
  exports: [WalletsService],
})
export class WalletsModule {}
