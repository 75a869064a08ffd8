import { ReadThroughCache } from '../../../common/cache/read-through-cache';
import { createHash, createSecretKey, KeyObject, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { JwtModuleOptions, JwtService } from '@nestjs/jwt';
import type { UserRole } from '../../../common/auth/authenticated-user';
import { AppConfig } from '../../../config/app-config';
import { AuthError } from '../auth.errors';

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  token_type: 'bearer';
  /** Access token lifetime in seconds. */
  expires_in: number;
}

export interface IssuedTokens {
  pair: TokenPair;
  /** What to store: the refresh token itself never is. */
  refreshTokenHash: string;
  /** The new session's family (the refresh token's `fam`), stored beside the hash. */
  family: string;
}

interface AccessClaims {
  sub: string;
  role: UserRole;
  type: 'access';
  iat: number;
  exp: number;
}

/**
 * `fam` names the login a refresh token descends from: every rotation keeps it, so a replayed
 * older token of the current session is told apart from a stale one of an earlier login.
 */
interface RefreshClaims {
  sub: string;
  type: 'refresh';
  jti: string;
  fam: string;
  iat: number;
  exp: number;
}

function secretKey(config: AppConfig): KeyObject {
  return createSecretKey(Buffer.from(config.jwtSecret, 'utf8'));
}

/**
 * HS256 only, with the secret as a KeyObject: jsonwebtoken (under @nestjs/jwt) is far slower with
 * a string secret (node-jsonwebtoken #966, #1046).
 */
export function jwtModuleOptions(config: AppConfig): JwtModuleOptions {
  const key = secretKey(config);
  return {
    secretOrKeyProvider: () => key,
    signOptions: { algorithm: 'HS256' },
    verifyOptions: { algorithms: ['HS256'] },
  };
}

/** Signs and checks the JWTs of CONTRACT.md section 3 through @nestjs/jwt. */
@Injectable()
export class TokenService {
  private readonly accessTtlSeconds: number;
  private readonly refreshTtlSeconds: number;
  /**
   * Access tokens already verified, by their exact text: a client sends the same token with every
   * request for its whole lifetime, and the same string always verifies the same way, so only its
   * expiry is checked again. (Whether the user may still act is the verifier's per-request check.)
   */
  private readonly verifiedAccess: ReadThroughCache<string, VerifiedAccess & { exp: number }>;

  constructor(
    private readonly jwt: JwtService,
    config: AppConfig,
  ) {
    this.accessTtlSeconds = config.jwtAccessTtlMinutes * 60;
    this.refreshTtlSeconds = config.jwtRefreshTtlDays * 24 * 60 * 60;
    // No token outlives the access lifetime, so neither does its memo.
    this.verifiedAccess = new ReadThroughCache({ ttlMs: this.accessTtlSeconds * 1000, maxEntries: config.accessTokenCacheMaxEntries });
  }

  /** A new session (login, verify-otp, registration): a new refresh-token family. */
  issue(user: { id: number; role: UserRole }): IssuedTokens {
    const iat = Math.floor(Date.now() / 1000);
    const access: AccessClaims = { sub: String(user.id), role: user.role, type: 'access', iat, exp: iat + this.accessTtlSeconds };
    const family = randomUUID();
    const refresh: RefreshClaims = {
      sub: String(user.id),
      type: 'refresh',
      jti: randomUUID(),
      fam: family,
      iat,
      exp: iat + this.refreshTtlSeconds,
    };
    const refreshToken = this.jwt.sign(refresh);
    return {
      pair: {
        access_token: this.jwt.sign(access),
        refresh_token: refreshToken,
        token_type: 'bearer',
        expires_in: this.accessTtlSeconds,
      },
      refreshTokenHash: TokenService.hash(refreshToken),
      family,
    };
  }

  /** Only an access token, for a refresh whose new refresh token was already stored (rotation). */
  issueAccess(user: { id: number; role: UserRole }): string {
    const iat = Math.floor(Date.now() / 1000);
    const access: AccessClaims = { sub: String(user.id), role: user.role, type: 'access', iat, exp: iat + this.accessTtlSeconds };
    return this.jwt.sign(access);
  }

  /** Only a refresh token of the same family and the hash to store: the rotation stores it before the access token is signed. */
  issueRefresh(userId: number, family: string | undefined): { token: string; hash: string } {
    const iat = Math.floor(Date.now() / 1000);
    const refresh: RefreshClaims = {
      sub: String(userId),
      type: 'refresh',
      jti: randomUUID(),
      fam: family ?? randomUUID(),
      iat,
      exp: iat + this.refreshTtlSeconds,
    };
    const token = this.jwt.sign(refresh);
    return { token, hash: TokenService.hash(token) };
  }

  /** Access token lifetime in seconds (the `expires_in` of every token response). */
  get accessTokenTtlSeconds(): number {
    return this.accessTtlSeconds;
  }

  /** The user id, role and issue time of a valid access token; INVALID_ACCESS_TOKEN otherwise. */
  verifyAccess(token: string): VerifiedAccess {
    const now = Math.floor(Date.now() / 1000);
    const known = this.verifiedAccess.peek(token);
    if (known && now < known.exp) return { userId: known.userId, role: known.role, iat: known.iat };
    const claims = this.decode<AccessClaims>(token);
    // jsonwebtoken checks `exp` only when present: a token without one would never expire (CONTRACT §3: 401).
    if (!claims || claims.type !== 'access' || !isUserId(claims.sub) || typeof claims.iat !== 'number' || typeof claims.exp !== 'number') {
      throw new AuthError('INVALID_ACCESS_TOKEN');
    }
    const verified: VerifiedAccess = { userId: Number(claims.sub), role: claims.role, iat: claims.iat };
    this.verifiedAccess.put(token, { ...verified, exp: claims.exp });
    return verified;
  }

  /**
   * The user id and family of a valid refresh token; INVALID_REFRESH_TOKEN otherwise. A token
   * signed before families existed has none: it rotates into a new family that was never stored,
   * so replay detection starts with that user's next login.
   */
  verifyRefresh(token: string): { userId: number; family: string | undefined } {
    const claims = this.decode<RefreshClaims>(token);
    if (!claims || claims.type !== 'refresh' || !isUserId(claims.sub) || typeof claims.exp !== 'number') throw new AuthError('INVALID_REFRESH_TOKEN');
    return { userId: Number(claims.sub), family: typeof claims.fam === 'string' && claims.fam !== '' ? claims.fam : undefined };
  }

  static hash(token: string): string {
    return createHash('sha256').update(token).digest('hex');
  }

  /** The claims of a valid token (signature, HS256, expiry); undefined for anything else. */
  private decode<T extends object>(token: string): T | undefined {
    try {
      return this.jwt.verify<T>(token);
    } catch {
      return undefined;
    }
  }
}

export interface VerifiedAccess {
  userId: number;
  role: UserRole;
  /** Issue time in seconds: refused when below the user's tokens_valid_after. */
  iat: number;
}

function isUserId(sub: unknown): sub is string {
  return typeof sub === 'string' && /^[1-9]\d{0,9}$/.test(sub);
}
