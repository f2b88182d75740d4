import { AuthError } from './errors';
import type { RefreshTokenStore } from './store';
import { ACCESS_TTL_MS, REFRESH_TTL_MS, hashToken, newRefreshToken, signAccessToken, type TokenPair } from './tokens';

export interface RefreshDeps {
  store: RefreshTokenStore;
  now: () => number;
}

/** Issue a token pair for a new session (login, impersonation). */
export async function issueToken(deps: RefreshDeps, userId: string, sessionId: string): Promise<TokenPair> {
  const now = deps.now();
  const refreshToken = newRefreshToken();
  await deps.store.insert({
    tokenHash: hashToken(refreshToken),
    userId,
    sessionId,
    issuedAt: now,
    expiresAt: now + REFRESH_TTL_MS,
    revokedAt: null,
  });
  return { accessToken: signAccessToken(userId, sessionId, now), refreshToken, expiresAt: now + ACCESS_TTL_MS };
}

/**
 * Exchange a refresh token for a new access token.
 * TODO(ADR-0007): rotate the refresh token and detect reuse.
 */
export async function refresh(deps: RefreshDeps, presented: string): Promise<TokenPair> {
  const now = deps.now();
  const record = await deps.store.findByHash(hashToken(presented));
  if (!record) throw new AuthError('invalid_grant', 'unknown refresh token');
  if (record.revokedAt !== null) throw new AuthError('invalid_grant', 'refresh token revoked');
  if (record.expiresAt <= now) throw new AuthError('invalid_grant', 'refresh token expired');
  return {
    accessToken: signAccessToken(record.userId, record.sessionId, now),
    refreshToken: presented,
    expiresAt: now + ACCESS_TTL_MS,
  };
}
