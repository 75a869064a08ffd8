import { DomainError } from '../../common/errors/domain.error';

export type SafetyErrorCode = 'SOS_RIDE_NOT_LIVE' | 'SOS_NOT_FOUND' | 'SOS_ALREADY_RESOLVED' | 'RIDE_CHECK_NOT_STARTED';

export const SAFETY_MESSAGES: Record<SafetyErrorCode, string> = {
  SOS_RIDE_NOT_LIVE: 'An SOS can be raised only while the ride is accepted, the driver has arrived, or the ride has started',
  SOS_NOT_FOUND: 'SOS alert not found',
  SOS_ALREADY_RESOLVED: 'SOS alert is already resolved',
  RIDE_CHECK_NOT_STARTED: 'A ride check is answered only while the ride is accepted, the driver has arrived, or the ride has started',
};

export class SafetyError extends DomainError<SafetyErrorCode> {
  constructor(code: SafetyErrorCode, message: string = SAFETY_MESSAGES[code]) {
    super(code, message);
  }
}
