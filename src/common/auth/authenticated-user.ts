export type UserRole = 'passenger' | 'driver';

/** Who is calling, as established by the access token and the user's current state. */
export interface AuthenticatedUser {
  id: number;
  role: UserRole;
  /** The account-completed marker: registration has been done. */
  isRegistered: boolean;
}
