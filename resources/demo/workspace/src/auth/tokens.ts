import { createHash, randomBytes } from 'node:crypto';
import { signJwt, verifyJwt } from '../lib/jwt';

/** Access tokens live 15 minutes, refresh tokens 30 days (ADR-0007). */
export const ACCESS_TTL_MS = 15 * 60 * 1000;
export const REFRESH_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  /** When the access token expires (ms since the epoch). */
  expiresAt: number;
}

export interface AccessClaims {
  sub: string;
  sid: string;
  exp: number;
}

/** An opaque refresh token: 32 random bytes, base64url. Only its hash is stored. */
export function newRefreshToken(): string {
  return 'rt_' + randomBytes(32).toString('base64url');
}

/** SHA-256 of a token, hex. The hash identifies the token: never log it. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function signAccessToken(userId: string, sessionId: string, now: number): string {
  return signJwt({ sub: userId, sid: sessionId, exp: Math.floor((now + ACCESS_TTL_MS) / 1000) });
}

export function verifyAccessToken(token: string): AccessClaims {
  return verifyJwt<AccessClaims>(token);
}
