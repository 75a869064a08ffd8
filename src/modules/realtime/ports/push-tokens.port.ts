/**
 * The push tokens apps register at sign-in (register and login take `push_token`). Bound to
 * UsersService in RealtimeModule.
 */
export abstract class PushTokensPort {
  abstract findPushTokens(userIds: readonly number[]): Promise<Map<number, string>>;
  /** Every operator account's id (an alert routed to the operators is pushed to those with no live socket). */
  abstract findOperatorIds(): Promise<number[]>;
  abstract clearPushToken(userId: number, token: string): Promise<void>;
}
