import type { Db } from '../db';
import { issueToken, type RefreshDeps } from './refresh';
import type { TokenPair } from './tokens';

export interface Session {
  id: string;
  userId: string;
  createdAt: number;
  endedAt: number | null;
}

/** Log in: a new session and its first token pair. */
export async function createSession(db: Db, deps: RefreshDeps, userId: string): Promise<{ session: Session; tokens: TokenPair }> {
  const id = 'ses_' + crypto.randomUUID();
  const createdAt = deps.now();
  await db.query('INSERT INTO sessions (id, user_id, created_at) VALUES ($1, $2, $3)', [id, userId, createdAt]);
  const tokens = await issueToken(deps, userId, id);
  return { session: { id, userId, createdAt, endedAt: null }, tokens };
}

export async function loadSession(db: Db, id: string): Promise<Session | undefined> {
  const row = await db.one('SELECT id, user_id, created_at, ended_at FROM sessions WHERE id = $1', [id]);
  if (!row) return undefined;
  return { id: String(row.id), userId: String(row.user_id), createdAt: Number(row.created_at), endedAt: row.ended_at == null ? null : Number(row.ended_at) };
}

/** Log out: end the session and revoke its refresh tokens. */
export async function endSession(db: Db, id: string, now: number): Promise<void> {
  await db.query('UPDATE sessions SET ended_at = $2 WHERE id = $1', [id, now]);
  await db.query('UPDATE refresh_tokens SET revoked_at = $2 WHERE session_id = $1 AND revoked_at IS NULL', [id, now]);
}
