import type { OperatorRole } from './operator-permissions';

export type UserRole = 'passenger' | 'driver' | 'operator';

/** Who is calling, as established by the access token and the user's current state. */
export interface AuthenticatedUser {
  id: number;
  role: UserRole;
  /** The account-completed marker: registration has been done. */
  isRegistered: boolean;
  /** An operator's role (CONTRACT §13); absent for everyone else. */
  operatorRole?: OperatorRole;
}
