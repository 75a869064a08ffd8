/**
 * The push tokens apps register at sign-in (register and login take `push_token`). Bound to
 * UsersService in RealtimeModule.
 */
export abstract class PushTokensPort {
  abstract findPushTokens(userIds: readonly number[]): Promise<Map<number, string>>;
  abstract clearPushToken(userId: number, token: string): Promise<void>;
}
