import { DomainError } from '../../common/errors/domain.error';

export type DriverErrorCode =
  'DRIVER_NOT_FOUND' | 'DRIVER_NOT_APPROVED' | 'DRIVER_LOCATION_UNKNOWN' | 'DOCUMENTS_MISSING' | 'DOCUMENT_NOT_FOUND' | 'DRIVER_NOT_SUSPENDED';

export const DRIVER_MESSAGES: Record<DriverErrorCode, string> = {
  DRIVER_NOT_FOUND: 'Driver profile not found',
  DRIVER_NOT_APPROVED: 'Driver account is not approved',
  DRIVER_LOCATION_UNKNOWN: 'Send your location or pass latitude and longitude',
  /** Completed with the kinds missing: "Documents missing: license, vehicle_registration". */
  DOCUMENTS_MISSING: 'Documents missing',
  DOCUMENT_NOT_FOUND: 'Document not found',
  DRIVER_NOT_SUSPENDED: 'Only a suspended driver can be reinstated',
};

export class DriverError extends DomainError<DriverErrorCode> {
  constructor(code: DriverErrorCode, message: string = DRIVER_MESSAGES[code]) {
    super(code, message);
  }
}
