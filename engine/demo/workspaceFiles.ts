/**
 * The virtual repository of the generated demo run: a small payments API whose refresh tokens are
 * reusable until they expire (the story of the bundled demo: refresh-token rotation, ADR-0007,
 * "Never log token values or token hashes"). `DEMO_FILES` is the tree as the session finds it;
 * `DEMO_EDITS` are the changes the agents make, as exact replacements, so every read, grep, diff
 * and test run of the replay shows the code as it is at that moment of the run.
 */

const ADR = `# ADR-0007: Sessions and refresh tokens

Status: accepted (2026-10-02)

## Context

Access tokens are short-lived JWTs (15 minutes). Refresh tokens are opaque, live 30 days and are
stored hashed (SHA-256) in refresh_tokens. Today a refresh token stays valid until it expires: a
stolen token works for a month and nobody notices.

## Decision

1. Rotation: every successful refresh issues a new refresh token and marks the presented one
   rotated (rotated_at). The client must use the new token from then on.
2. Families: every refresh token descended from one login shares a family_id.
3. Reuse detection: presenting a token that was already rotated revokes its whole family and
   answers 401 invalid_grant. The real client logs in again; whoever copied the token is out.
4. Concurrency: marking a token rotated is a single compare-and-set; of two concurrent refreshes
   with the same token exactly one wins.
5. Legacy sessions (no family_id) keep working: their next refresh adopts a new family.

## Constraints

- Never log token values or token hashes. Log the family id and the user id instead.
- No downtime: new columns are nullable, no table rewrite.

## Consequences

A client that retries a refresh after a network error may present a rotated token and lose its
session; a grace window for that is a follow-up, not part of this change.
`;

const SCHEMA = `-- Generated from migrations 0001-0041. Do not edit by hand.
CREATE TABLE users (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL UNIQUE,
  created_at BIGINT NOT NULL
);

CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users (id),
  created_at BIGINT NOT NULL,
  ended_at BIGINT
);

CREATE TABLE refresh_tokens (
  token_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users (id),
  session_id TEXT NOT NULL REFERENCES sessions (id),
  issued_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  revoked_at BIGINT
);

CREATE INDEX refresh_tokens_session ON refresh_tokens (session_id);
`;

const MIGRATION_0041 = `-- 0041: sessions can end; refresh tokens are looked up by session on logout.
ALTER TABLE sessions ADD COLUMN ended_at BIGINT;
CREATE INDEX refresh_tokens_session ON refresh_tokens (session_id);
`;

const ERRORS = `export type AuthErrorCode = 'invalid_grant' | 'invalid_token' | 'forbidden';

/** An authentication failure the routes answer with 401 (never with the token that caused it). */
export class AuthError extends Error {
  constructor(
    readonly code: AuthErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AuthError';
  }
}
`;

const LOGGER = `/** Structured JSON logs. Every field is written as is: never pass a secret. */
export const logger = {
  info: (msg: string, fields: Record<string, unknown> = {}) => write('info', msg, fields),
  warn: (msg: string, fields: Record<string, unknown> = {}) => write('warn', msg, fields),
  error: (msg: string, fields: Record<string, unknown> = {}) => write('error', msg, fields),
};

function write(level: string, msg: string, fields: Record<string, unknown>): void {
  process.stdout.write(JSON.stringify({ level, msg, ...fields, at: new Date().toISOString() }) + '\\n');
}
`;

const TOKENS = `import { createHash, randomBytes } from 'node:crypto';
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
`;

const STORE = `import type { Db } from '../db';

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
`;

const REFRESH = `import { AuthError } from './errors';
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
`;

const FAMILY = `import { randomUUID } from 'node:crypto';
import type { RefreshDeps } from './refresh';
import type { RefreshTokenRecord } from './store';

/** A token family: every refresh token descended from one login shares its id (ADR-0007). */
export function newFamilyId(): string {
  return 'fam_' + randomUUID();
}

/**
 * Called before a refresh token is rotated.
 * TODO(ADR-0007): a token that was already rotated is being reused: revoke the whole family.
 */
export async function assertNotReused(_deps: RefreshDeps, _record: RefreshTokenRecord, _now: number): Promise<void> {
  // Not implemented yet: reuse goes unnoticed.
}
`;

const SESSION = `import type { Db } from '../db';
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
`;

const MIDDLEWARE = `import type { NextFunction, Request, Response } from 'express';
import { logger } from '../lib/logger';
import { AuthError } from './errors';
import { verifyAccessToken } from './tokens';

/** Every /api route: a valid access token, or 401. */
export function requireSession(req: Request, res: Response, next: NextFunction): void {
  const header = req.headers.authorization ?? '';
  const token = header.startsWith('Bearer ') ? header.slice(7) : '';
  try {
    const claims = verifyAccessToken(token);
    res.locals.userId = claims.sub;
    res.locals.sessionId = claims.sid;
    next();
  } catch (err) {
    logger.warn('rejected access token', { token, reason: (err as Error).message });
    res.status(401).json({ error: 'invalid_token' });
  }
}

/** A refused refresh answers 401 and drops the refresh cookie. */
export function refreshErrorHandler(err: unknown, _req: Request, res: Response, next: NextFunction): void {
  if (err instanceof AuthError && err.code === 'invalid_grant') {
    logger.info('refresh refused', { reason: err.message });
    res.clearCookie('rt', { path: '/auth/refresh' });
    res.status(401).json({ error: 'invalid_grant' });
    return;
  }
  next(err);
}
`;

const ROUTES = `import { Router } from 'express';
import type { Db } from '../db';
import { refreshErrorHandler } from '../auth/middleware';
import { refresh, type RefreshDeps } from '../auth/refresh';
import { createSession } from '../auth/session';
import { findUserByEmail } from '../users';

const COOKIE = { httpOnly: true, secure: true, sameSite: 'strict', path: '/auth/refresh' } as const;

export function authRoutes(db: Db, deps: RefreshDeps): Router {
  const r = Router();

  r.post('/auth/login', async (req, res, next) => {
    try {
      const user = await findUserByEmail(db, String(req.body.email));
      const { tokens } = await createSession(db, deps, user.id);
      res.cookie('rt', tokens.refreshToken, COOKIE);
      res.json({ accessToken: tokens.accessToken, expiresAt: tokens.expiresAt });
    } catch (err) {
      next(err);
    }
  });

  r.post('/auth/refresh', async (req, res, next) => {
    try {
      const pair = await refresh(deps, String(req.cookies.rt ?? ''));
      res.json({ accessToken: pair.accessToken, expiresAt: pair.expiresAt });
    } catch (err) {
      next(err);
    }
  });

  r.use(refreshErrorHandler);
  return r;
}
`;

const IMPERSONATE = `import type { Db } from '../db';
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
`;

const TEST_API = `import { createApp } from '../../src/app';
import { manualClock, type ManualClock } from './clock';
import { memoryDb } from './memoryDb';

export interface ApiResponse {
  status: number;
  /** The cookie jar after the response, like a browser's. */
  cookies: { rt: string };
  body: Record<string, unknown>;
}

export interface TestApi {
  clock: ManualClock;
  login(email: string): Promise<ApiResponse>;
  refresh(token: string): Promise<ApiResponse>;
  /** A session and token written the way releases before ADR-0007 wrote them (no family). */
  legacySession(email: string): Promise<{ refreshToken: string }>;
  /** Live (not rotated, not revoked) tokens of the family of a token. */
  liveTokens(anyTokenOfFamily: string): Promise<number>;
  familyOf(token: string): Promise<string | null>;
}

export async function testApi(): Promise<TestApi> {
  const clock = manualClock(Date.parse('2026-11-02T09:00:00Z'));
  const db = await memoryDb();
  const app = createApp({ db, now: clock.now });
  return app.testClient(clock);
}
`;

const FAKES = `import { vi } from 'vitest';
import type { RefreshTokenRecord, RefreshTokenStore } from '../../src/auth/store';

export function record(over: Partial<RefreshTokenRecord> = {}): RefreshTokenRecord {
  return { tokenHash: 'h_test', userId: 'usr_1', sessionId: 'ses_1', issuedAt: 0, expiresAt: 10_000_000, revokedAt: null, familyId: 'fam_test', rotatedAt: null, ...over };
}

export function fakeStore() {
  return {
    insert: vi.fn(async () => undefined),
    findByHash: vi.fn(async () => undefined),
    revoke: vi.fn(async () => undefined),
    markRotated: vi.fn(async () => true),
    revokeFamily: vi.fn(async () => 2),
  } satisfies Record<keyof RefreshTokenStore | 'markRotated' | 'revokeFamily', unknown>;
}
`;

const REFRESH_SPEC = `import { beforeEach, describe, expect, it } from 'vitest';
import { testApi, type TestApi } from '../support/testApi';

describe('refresh-token rotation', () => {
  let api: TestApi;
  beforeEach(async () => {
    api = await testApi();
  });

  it('issues a token pair on login', async () => {
    const login = await api.login('ada@example.com');
    expect(login.status).toBe(200);
    expect(login.cookies.rt).toMatch(/^rt_/);
  });

  it('rotates the refresh token on every refresh', async () => {
    const login = await api.login('ada@example.com');
    const next = await api.refresh(login.cookies.rt);
    expect(next.status).toBe(200);
    expect(next.cookies.rt).not.toBe(login.cookies.rt);
  });

  it('reusing a rotated token revokes the whole family', async () => {
    const login = await api.login('ada@example.com');
    const next = await api.refresh(login.cookies.rt);
    const replay = await api.refresh(login.cookies.rt);
    expect(replay.status).toBe(401);
    const after = await api.refresh(next.cookies.rt);
    expect(after.status).toBe(401);
  });

  it('refuses an expired refresh token', async () => {
    const login = await api.login('ada@example.com');
    api.clock.advance(31 * 24 * 60 * 60 * 1000);
    const res = await api.refresh(login.cookies.rt);
    expect(res.status).toBe(401);
  });
});
`;

const FAMILY_SPEC = `import { describe, expect, it, vi } from 'vitest';
import { AuthError } from '../../src/auth/errors';
import { assertNotReused } from '../../src/auth/family';
import { logger } from '../../src/lib/logger';
import { fakeStore, record } from '../support/fakes';

describe('assertNotReused', () => {
  it('passes a token that was never rotated', async () => {
    const store = fakeStore();
    await expect(assertNotReused({ store, now: () => 1000 }, record({ rotatedAt: null }), 1000)).resolves.toBeUndefined();
    expect(store.revokeFamily).not.toHaveBeenCalled();
  });

  it('revokes the family when a rotated token is reused', async () => {
    const store = fakeStore();
    const reused = record({ familyId: 'fam_test', rotatedAt: 900 });
    await expect(assertNotReused({ store, now: () => 1000 }, reused, 1000)).rejects.toBeInstanceOf(AuthError);
    expect(store.revokeFamily).toHaveBeenCalledWith('fam_test', 1000);
  });

  it('logs the family and the user, never the token or its hash', async () => {
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    const reused = record({ familyId: 'fam_test', rotatedAt: 900, tokenHash: 'h_secret' });
    await assertNotReused({ store: fakeStore(), now: () => 1000 }, reused, 1000).catch(() => undefined);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(warn.mock.calls)).not.toContain('h_secret');
  });
});
`;

const STORE_SPEC = `import { beforeEach, describe, expect, it } from 'vitest';
import { PgRefreshTokenStore } from '../../src/auth/store';
import { record } from '../support/fakes';
import { testDb, type TestDb } from '../support/testDb';

describe('PgRefreshTokenStore', () => {
  let db: TestDb;
  let store: PgRefreshTokenStore;
  beforeEach(async () => {
    db = await testDb();
    store = new PgRefreshTokenStore(db);
  });

  it('insert stores the family id', async () => {
    await store.insert(record({ tokenHash: 'h1', familyId: 'fam_1' }));
    expect((await store.findByHash('h1'))?.familyId).toBe('fam_1');
  });

  it('markRotated sets rotated_at once', async () => {
    await store.insert(record({ tokenHash: 'h1', familyId: 'fam_1' }));
    expect(await store.markRotated('h1', 2000)).toBe(true);
    expect(await store.markRotated('h1', 3000)).toBe(false);
    expect((await store.findByHash('h1'))?.rotatedAt).toBe(2000);
  });

  it('revokeFamily revokes every live token of the family', async () => {
    await store.insert(record({ tokenHash: 'h1', familyId: 'fam_1' }));
    await store.insert(record({ tokenHash: 'h2', familyId: 'fam_1' }));
    await store.insert(record({ tokenHash: 'h3', familyId: 'fam_2' }));
    expect(await store.revokeFamily('fam_1', 5000)).toBe(2);
    expect((await store.findByHash('h3'))?.revokedAt).toBeNull();
  });
});
`;

const MIDDLEWARE_SPEC = `import { describe, expect, it, vi } from 'vitest';
import { requireSession } from '../../src/auth/middleware';
import { logger } from '../../src/lib/logger';
import { mockReqRes } from '../support/http';

describe('requireSession', () => {
  it('rejects a missing bearer token', () => {
    const { req, res, next } = mockReqRes({});
    requireSession(req, res, next);
    expect(res.statusCode).toBe(401);
    expect(next).not.toHaveBeenCalled();
  });

  it('answers 401 for an expired token', () => {
    const { req, res, next } = mockReqRes({ authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.expired.sig' });
    requireSession(req, res, next);
    expect(res.statusCode).toBe(401);
  });
});
`;

/** The repository as the session finds it. */
export const DEMO_FILES: Readonly<Record<string, string>> = Object.freeze({
  'db/migrations/0041_sessions.sql': MIGRATION_0041,
  'db/schema.sql': SCHEMA,
  'docs/adr/0007-sessions.md': ADR,
  'src/admin/impersonate.ts': IMPERSONATE,
  'src/auth/errors.ts': ERRORS,
  'src/auth/family.ts': FAMILY,
  'src/auth/middleware.ts': MIDDLEWARE,
  'src/auth/refresh.ts': REFRESH,
  'src/auth/session.ts': SESSION,
  'src/auth/store.ts': STORE,
  'src/auth/tokens.ts': TOKENS,
  'src/lib/logger.ts': LOGGER,
  'src/routes/auth.ts': ROUTES,
  'tests/integration/refresh.spec.ts': REFRESH_SPEC,
  'tests/support/fakes.ts': FAKES,
  'tests/support/testApi.ts': TEST_API,
  'tests/unit/family.spec.ts': FAMILY_SPEC,
  'tests/unit/middleware.spec.ts': MIDDLEWARE_SPEC,
  'tests/unit/store.spec.ts': STORE_SPEC,
});

/** One change an agent makes: exact replacements in one file, or the whole text of a new file. */
export interface DemoEdit {
  path: string;
  /** What the agent says it changed (the `summary` argument of `edit_file`). */
  summary: string;
  replace?: readonly (readonly [find: string, replacement: string])[];
  create?: string;
}

/** The end of the last test of a spec file: a new test goes in before the closing of the suite. */
const SUITE_END = '  });\n});\n';
const appendTest = (test: string): readonly [string, string] => [SUITE_END, `  });\n\n${test}  });\n});\n`];

export const DEMO_EDITS = {
  // worker-store: schema and store
  M1: {
    path: 'db/migrations/0042_refresh_token_family.sql',
    summary: 'New migration 0042: nullable family_id and rotated_at on refresh_tokens, family_id on sessions',
    create: `-- 0042: refresh-token rotation (ADR-0007). Nullable columns: no table rewrite, no downtime.
ALTER TABLE refresh_tokens ADD COLUMN family_id TEXT;
ALTER TABLE refresh_tokens ADD COLUMN rotated_at BIGINT;
ALTER TABLE sessions ADD COLUMN family_id TEXT;
`,
  },
  M2: {
    path: 'db/migrations/0042_refresh_token_family.sql',
    summary: 'Partial index on live tokens by family, for revokeFamily()',
    replace: [['ALTER TABLE sessions ADD COLUMN family_id TEXT;\n', 'ALTER TABLE sessions ADD COLUMN family_id TEXT;\n\n-- revokeFamily() touches the live tokens of one family only.\nCREATE INDEX refresh_tokens_live_family ON refresh_tokens (family_id) WHERE revoked_at IS NULL;\n']],
  },
  S1: {
    path: 'src/auth/store.ts',
    summary: 'RefreshTokenRecord gains familyId and rotatedAt (both nullable)',
    replace: [['  revokedAt: number | null;\n}\n', '  revokedAt: number | null;\n  /** Null for tokens issued before ADR-0007 (legacy sessions). */\n  familyId: string | null;\n  rotatedAt: number | null;\n}\n']],
  },
  S2: {
    path: 'src/auth/store.ts',
    summary: 'RefreshTokenStore interface: markRotated() and revokeFamily()',
    replace: [['  revoke(tokenHash: string, at: number): Promise<void>;\n}\n', '  revoke(tokenHash: string, at: number): Promise<void>;\n  /** Mark a token rotated; false when it already was. */\n  markRotated(tokenHash: string, at: number): Promise<boolean>;\n  /** Revoke every live token of a family; returns how many. */\n  revokeFamily(familyId: string, at: number): Promise<number>;\n}\n']],
  },
  S3: {
    path: 'src/auth/store.ts',
    summary: 'insert() writes family_id',
    replace: [
      [
        "      'INSERT INTO refresh_tokens (token_hash, user_id, session_id, issued_at, expires_at) VALUES ($1, $2, $3, $4, $5)',\n      [r.tokenHash, r.userId, r.sessionId, r.issuedAt, r.expiresAt],",
        "      'INSERT INTO refresh_tokens (token_hash, user_id, session_id, issued_at, expires_at, family_id) VALUES ($1, $2, $3, $4, $5, $6)',\n      [r.tokenHash, r.userId, r.sessionId, r.issuedAt, r.expiresAt, r.familyId],",
      ],
    ],
  },
  S4: {
    path: 'src/auth/store.ts',
    summary: 'PgRefreshTokenStore: markRotated() (read rotated_at, then set it) and revokeFamily()',
    replace: [
      [
        "    await this.db.query('UPDATE refresh_tokens SET revoked_at = $2 WHERE token_hash = $1', [tokenHash, at]);\n  }\n}\n",
        "    await this.db.query('UPDATE refresh_tokens SET revoked_at = $2 WHERE token_hash = $1', [tokenHash, at]);\n  }\n\n  async markRotated(tokenHash: string, at: number): Promise<boolean> {\n    const row = await this.db.one('SELECT rotated_at FROM refresh_tokens WHERE token_hash = $1', [tokenHash]);\n    if (!row || row.rotated_at != null) return false;\n    await this.db.query('UPDATE refresh_tokens SET rotated_at = $2 WHERE token_hash = $1', [tokenHash, at]);\n    return true;\n  }\n\n  async revokeFamily(familyId: string, at: number): Promise<number> {\n    const res = await this.db.query('UPDATE refresh_tokens SET revoked_at = $2 WHERE family_id = $1 AND revoked_at IS NULL', [familyId, at]);\n    return res.rowCount;\n  }\n}\n",
      ],
    ],
  },
  S5: {
    path: 'src/auth/store.ts',
    summary: 'toRecord() maps family_id and rotated_at',
    replace: [['    revokedAt: row.revoked_at == null ? null : Number(row.revoked_at),\n', '    revokedAt: row.revoked_at == null ? null : Number(row.revoked_at),\n    familyId: row.family_id == null ? null : String(row.family_id),\n    rotatedAt: row.rotated_at == null ? null : Number(row.rotated_at),\n']],
  },
  // debug-1: the race in markRotated
  CAS: {
    path: 'src/auth/store.ts',
    summary: 'markRotated() as one compare-and-set UPDATE … WHERE rotated_at IS NULL: of concurrent callers exactly one wins',
    replace: [
      [
        "  async markRotated(tokenHash: string, at: number): Promise<boolean> {\n    const row = await this.db.one('SELECT rotated_at FROM refresh_tokens WHERE token_hash = $1', [tokenHash]);\n    if (!row || row.rotated_at != null) return false;\n    await this.db.query('UPDATE refresh_tokens SET rotated_at = $2 WHERE token_hash = $1', [tokenHash, at]);\n    return true;\n  }\n",
        "  async markRotated(tokenHash: string, at: number): Promise<boolean> {\n    // One statement (ADR-0007 §4): a read-then-write let two concurrent refreshes both win.\n    const res = await this.db.query('UPDATE refresh_tokens SET rotated_at = $2 WHERE token_hash = $1 AND rotated_at IS NULL', [tokenHash, at]);\n    return res.rowCount === 1;\n  }\n",
      ],
    ],
  },
  // worker-rotation: refresh.ts and the refresh route
  R0: {
    path: 'src/auth/refresh.ts',
    summary: 'Import assertNotReused and newFamilyId from ./family',
    replace: [["import { AuthError } from './errors';\n", "import { AuthError } from './errors';\nimport { assertNotReused, newFamilyId } from './family';\n"]],
  },
  R1: {
    path: 'src/auth/refresh.ts',
    summary: 'issueToken() takes the family id (a new family by default) and stores it with rotatedAt null',
    replace: [
      ['export async function issueToken(deps: RefreshDeps, userId: string, sessionId: string): Promise<TokenPair> {', 'export async function issueToken(deps: RefreshDeps, userId: string, sessionId: string, familyId: string = newFamilyId()): Promise<TokenPair> {'],
      ['    revokedAt: null,\n  });\n', '    revokedAt: null,\n    familyId,\n    rotatedAt: null,\n  });\n'],
    ],
  },
  R2: {
    path: 'src/auth/refresh.ts',
    summary: 'refresh() rotates: reuse check, markRotated(), then a new token of the same family; a legacy token adopts a new family',
    replace: [
      [
        "/**\n * Exchange a refresh token for a new access token.\n * TODO(ADR-0007): rotate the refresh token and detect reuse.\n */",
        '/**\n * Exchange a refresh token for a new pair (ADR-0007): the presented token is marked rotated and a\n * new one of the same family is issued. Presenting a rotated token again is reuse (its family is\n * revoked); a legacy token without a family adopts a new one here.\n */',
      ],
      [
        "  return {\n    accessToken: signAccessToken(record.userId, record.sessionId, now),\n    refreshToken: presented,\n    expiresAt: now + ACCESS_TTL_MS,\n  };\n}\n",
        "  await assertNotReused(deps, record, now);\n  if (!(await deps.store.markRotated(record.tokenHash, now))) {\n    // Lost the race to a concurrent refresh of the same token: refuse this one, keep the family.\n    throw new AuthError('invalid_grant', 'refresh token already rotated');\n  }\n  return issueToken(deps, record.userId, record.sessionId, record.familyId ?? newFamilyId());\n}\n",
      ],
    ],
  },
  Ro1: {
    path: 'src/routes/auth.ts',
    summary: 'POST /auth/refresh sets the rotated refresh token as the new rt cookie',
    replace: [["      const pair = await refresh(deps, String(req.cookies.rt ?? ''));\n", "      const pair = await refresh(deps, String(req.cookies.rt ?? ''));\n      // Rotation: the presented token is spent; the client must keep the new one.\n      res.cookie('rt', pair.refreshToken, COOKIE);\n"]],
  },
  // worker-family
  F0: {
    path: 'src/auth/family.ts',
    summary: 'Import AuthError and the logger',
    replace: [["import { randomUUID } from 'node:crypto';\n", "import { randomUUID } from 'node:crypto';\nimport { logger } from '../lib/logger';\nimport { AuthError } from './errors';\n"]],
  },
  F1: {
    path: 'src/auth/family.ts',
    summary: 'assertNotReused(): a rotated token presented again revokes its family, logs family and user ids only, and throws invalid_grant',
    replace: [
      [
        "/**\n * Called before a refresh token is rotated.\n * TODO(ADR-0007): a token that was already rotated is being reused: revoke the whole family.\n */\nexport async function assertNotReused(_deps: RefreshDeps, _record: RefreshTokenRecord, _now: number): Promise<void> {\n  // Not implemented yet: reuse goes unnoticed.\n}\n",
        "/**\n * Called before a refresh token is rotated. A token that was already rotated is being reused:\n * someone holds a copy. Revoke the whole family (ADR-0007 §3) and refuse.\n */\nexport async function assertNotReused(deps: RefreshDeps, record: RefreshTokenRecord, now: number): Promise<void> {\n  if (record.rotatedAt === null) return;\n  const revoked = record.familyId === null ? 0 : await deps.store.revokeFamily(record.familyId, now);\n  // Family and user only: never the token or its hash (ADR-0007, Constraints).\n  logger.warn('refresh token reuse: family revoked', { familyId: record.familyId, userId: record.userId, revoked });\n  throw new AuthError('invalid_grant', 'refresh token reuse detected');\n}\n",
      ],
    ],
  },
  // worker-session: sessions carry their family; the middleware stops logging tokens
  Se1: {
    path: 'src/auth/session.ts',
    summary: 'Session.familyId; createSession() starts a family and passes it to issueToken()',
    replace: [
      ["import { issueToken, type RefreshDeps } from './refresh';\n", "import { newFamilyId } from './family';\nimport { issueToken, type RefreshDeps } from './refresh';\n"],
      ['  endedAt: number | null;\n}\n', '  endedAt: number | null;\n  /** Null for sessions created before ADR-0007 (legacy). */\n  familyId: string | null;\n}\n'],
      [
        "  await db.query('INSERT INTO sessions (id, user_id, created_at) VALUES ($1, $2, $3)', [id, userId, createdAt]);\n  const tokens = await issueToken(deps, userId, id);\n  return { session: { id, userId, createdAt, endedAt: null }, tokens };\n",
        "  const familyId = newFamilyId();\n  await db.query('INSERT INTO sessions (id, user_id, created_at, family_id) VALUES ($1, $2, $3, $4)', [id, userId, createdAt, familyId]);\n  const tokens = await issueToken(deps, userId, id, familyId);\n  return { session: { id, userId, createdAt, endedAt: null, familyId }, tokens };\n",
      ],
    ],
  },
  Se2: {
    path: 'src/auth/session.ts',
    summary: 'loadSession() reads family_id (null for legacy sessions)',
    replace: [
      [
        "  const row = await db.one('SELECT id, user_id, created_at, ended_at FROM sessions WHERE id = $1', [id]);\n  if (!row) return undefined;\n  return { id: String(row.id), userId: String(row.user_id), createdAt: Number(row.created_at), endedAt: row.ended_at == null ? null : Number(row.ended_at) };\n",
        "  const row = await db.one('SELECT id, user_id, created_at, ended_at, family_id FROM sessions WHERE id = $1', [id]);\n  if (!row) return undefined;\n  return {\n    id: String(row.id),\n    userId: String(row.user_id),\n    createdAt: Number(row.created_at),\n    endedAt: row.ended_at == null ? null : Number(row.ended_at),\n    familyId: row.family_id == null ? null : String(row.family_id),\n  };\n",
      ],
    ],
  },
  Me1: {
    path: 'src/auth/middleware.ts',
    summary: 'requireSession() logs whether a token was sent and why it failed, never the token',
    replace: [["    logger.warn('rejected access token', { token, reason: (err as Error).message });\n", "    // Never the token itself (ADR-0007): whether one was sent, and why it was refused.\n    logger.warn('rejected access token', { tokenPresent: token !== '', reason: (err as Error).message });\n"]],
  },
  Mt1: {
    path: 'tests/unit/middleware.spec.ts',
    summary: "New test: 'never logs the presented token'",
    replace: [
      appendTest(
        "  it('never logs the presented token', () => {\n    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);\n    const { req, res, next } = mockReqRes({ authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig' });\n    requireSession(req, res, next);\n    expect(JSON.stringify(warn.mock.calls)).not.toContain('eyJhbGciOiJIUzI1NiJ9.e30.sig');\n",
      ),
    ],
  },
  // test-1: the integration cases the ADR asks for
  T1: {
    path: 'tests/integration/refresh.spec.ts',
    summary: "New test: 'concurrent refresh keeps one family' (five parallel refreshes of one token, exactly one wins)",
    replace: [
      appendTest(
        "  it('concurrent refresh keeps one family', async () => {\n    const login = await api.login('ada@example.com');\n    const results = await Promise.all(Array.from({ length: 5 }, () => api.refresh(login.cookies.rt)));\n    expect(results.filter((r) => r.status === 200)).toHaveLength(1);\n    expect(await api.liveTokens(login.cookies.rt)).toBe(1);\n",
      ),
    ],
  },
  T2: {
    path: 'tests/integration/refresh.spec.ts',
    summary: "New test: 'a legacy session without a family keeps working'",
    replace: [
      appendTest(
        "  it('a legacy session without a family keeps working', async () => {\n    const legacy = await api.legacySession('grace@example.com');\n    const next = await api.refresh(legacy.refreshToken);\n    expect(next.status).toBe(200);\n    expect(await api.familyOf(next.cookies.rt)).toMatch(/^fam_/);\n",
      ),
    ],
  },
} as const satisfies Record<string, DemoEdit>;

export type EditId = keyof typeof DEMO_EDITS;
