import { AuthenticatedUser } from './authenticated-user';

/**
 * Verifies an access token and the state of its user (exists, active, not blocked). Implemented by
 * the auth module; used by the HTTP guard and by the WebSocket gateway on connection, so both
 * apply exactly the same rules. Throws a DomainError (401 or 403) when the token is refused.
 */
export abstract class AccessTokenVerifier {
  abstract verify(token: string): Promise<AuthenticatedUser>;
}
