import type { Db } from '../db';
import { issueToken, type RefreshDeps } from '../auth/refresh';
import type { TokenPair } from '../auth/tokens';
import { logger } from '../lib/logger';

/** Support staff act as a user for one session; every start is logged (ids only). */
export async function impersonate(db: Db, deps: RefreshDeps, staffId: string, userId: string): Promise<TokenPair> {
  const sessionId = 'imp_' + crypto.randomUUID();
  await db.query('INSERT INTO sessions (id, user_id, created_at) VALUES ($1, $2, $3)', [sessionId, userId, deps.now()]);
  logger.info('impersonation started', { staffId, userId, sessionId });
  return issueToken(deps, userId, sessionId);
}
