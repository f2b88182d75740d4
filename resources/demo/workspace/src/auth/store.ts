import type { Db } from '../db';

export interface RefreshTokenRecord {
  tokenHash: string;
  userId: string;
  sessionId: string;
  issuedAt: number;
  expiresAt: number;
  revokedAt: number | null;
}

export interface RefreshTokenStore {
  insert(record: RefreshTokenRecord): Promise<void>;
  findByHash(tokenHash: string): Promise<RefreshTokenRecord | undefined>;
  revoke(tokenHash: string, at: number): Promise<void>;
}

export class PgRefreshTokenStore implements RefreshTokenStore {
  constructor(private readonly db: Db) {}

  async insert(r: RefreshTokenRecord): Promise<void> {
    await this.db.query(
      'INSERT INTO refresh_tokens (token_hash, user_id, session_id, issued_at, expires_at) VALUES ($1, $2, $3, $4, $5)',
      [r.tokenHash, r.userId, r.sessionId, r.issuedAt, r.expiresAt],
    );
  }

  async findByHash(tokenHash: string): Promise<RefreshTokenRecord | undefined> {
    const row = await this.db.one('SELECT * FROM refresh_tokens WHERE token_hash = $1', [tokenHash]);
    return row ? toRecord(row) : undefined;
  }

  async revoke(tokenHash: string, at: number): Promise<void> {
    await this.db.query('UPDATE refresh_tokens SET revoked_at = $2 WHERE token_hash = $1', [tokenHash, at]);
  }
}

function toRecord(row: Record<string, unknown>): RefreshTokenRecord {
  return {
    tokenHash: String(row.token_hash),
    userId: String(row.user_id),
    sessionId: String(row.session_id),
    issuedAt: Number(row.issued_at),
    expiresAt: Number(row.expires_at),
    revokedAt: row.revoked_at == null ? null : Number(row.revoked_at),
  };
}
