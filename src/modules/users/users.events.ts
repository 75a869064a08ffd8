/**
 * Adds to the domain events (declaration merging, so that the shared event list needs no edit):
 * a user's sessions were ended while the account stays usable (logout, refresh-token replay).
 * Every instance drops its cached auth state of the user, so the new cut-off applies at once
 * rather than after USER_STATE_CACHE_MS. Blocking and deletion keep `user.access_revoked`.
 */
declare module '../../common/events/domain-events' {
  interface DomainEventMap {
    'user.sessions_revoked': { user_id: number; reason: 'logout' | 'refresh_token_replay' };
    /** An operator unblocked the user: every instance forgets the cached "blocked" state at once. */
    'user.access_restored': { user_id: number };
    /** Registration completed (role and registered state set): every instance forgets the cached state. */
    'user.registered': { user_id: number };
    /** The user's public profile (name, picture) changed: every instance forgets the rides showing it. */
    'user.profile_changed': { user_id: number };
  }
}

export type SessionRevocationReason = 'logout' | 'refresh_token_replay';
