import { DomainError } from '../../../common/errors/domain.error';

export type BidErrorCode = 'BID_NOT_FOUND' | 'BID_NOT_PENDING' | 'DRIVER_BUSY' | 'DRIVER_CANNOT_BID';

export const BID_MESSAGES: Record<BidErrorCode, string> = {
  BID_NOT_FOUND: 'Bid not found',
  BID_NOT_PENDING: 'Bid is no longer pending',
  DRIVER_BUSY: 'Driver already has a ride in progress',
  DRIVER_CANNOT_BID: 'Go online before bidding on rides',
};

export class BidError extends DomainError<BidErrorCode> {
  constructor(code: BidErrorCode, message: string = BID_MESSAGES[code]) {
    super(code, message);
  }
}
