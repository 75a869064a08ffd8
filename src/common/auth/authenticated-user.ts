import type { OperatorRole } from './operator-permissions';

export const USER_ROLES = ['passenger', 'driver', 'operator'] as const;
export type UserRole = (typeof USER_ROLES)[number];

/** Who is calling, as established by the access token and the user's current state. */
export interface AuthenticatedUser {
  id: number;
  role: UserRole;
  /** The account-completed marker: registration has been done. */
  isRegistered: boolean;
  /** An operator's role (CONTRACT §13); absent for everyone else. */
  operatorRole?: OperatorRole;
}
