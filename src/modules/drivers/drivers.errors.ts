import { DomainError } from '../../common/errors/domain.error';

export type DriverErrorCode = 'DRIVER_NOT_FOUND' | 'DRIVER_NOT_APPROVED' | 'DRIVER_LOCATION_UNKNOWN';

export const DRIVER_MESSAGES: Record<DriverErrorCode, string> = {
  DRIVER_NOT_FOUND: 'Driver profile not found',
  DRIVER_NOT_APPROVED: 'Driver account is not approved',
  DRIVER_LOCATION_UNKNOWN: 'Send your location or pass latitude and longitude',
};

export class DriverError extends DomainError<DriverErrorCode> {
  constructor(code: DriverErrorCode, message: string = DRIVER_MESSAGES[code]) {
    super(code, message);
  }
}
