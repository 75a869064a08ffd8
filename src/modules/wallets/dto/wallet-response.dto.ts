import { ApiProperty } from '@nestjs/swagger';
import { toMajor } from '../../../common/money';
import type { WalletRow } from '../wallets.repository';

export class WalletResponseDto {
  @ApiProperty({ example: 42 }) user_id!: number;
  @ApiProperty({ example: 25.5, description: 'Major units, 2 decimals' }) balance!: number;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ example: '2026-11-22T05:18:38.000Z' }) updated_at!: string;

  static from(wallet: WalletRow): WalletResponseDto {
    return {
      user_id: wallet.userId!,
      balance: toMajor(wallet.balanceMinor),
      currency: wallet.currency.trim(),
      updated_at: new Date(wallet.updatedAt).toISOString(),
    };
  }
}
