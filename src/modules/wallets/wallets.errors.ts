import { DomainError } from '../../common/errors/domain.error';

export type WalletErrorCode = 'WALLET_NOT_FOUND' | 'INSUFFICIENT_FUNDS' | 'INVALID_AMOUNT';

export const WALLET_MESSAGES: Record<WalletErrorCode, string> = {
  WALLET_NOT_FOUND: 'Wallet not found',
  INSUFFICIENT_FUNDS: 'Wallet balance does not cover the fare',
  INVALID_AMOUNT: 'Amount must be a positive number with at most 2 decimals',
};

export class WalletError extends DomainError<WalletErrorCode> {
  constructor(code: WalletErrorCode, message: string = WALLET_MESSAGES[code]) {
    super(code, message);
  }
}
