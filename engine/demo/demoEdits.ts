/**
 * The changes the demo's agents make to its virtual repository (resources/demo/workspace, read by
 * the host: `readDemoWorkspace`), as exact replacements or whole new files, so every read, grep,
 * diff and test run of the replay shows the code as it is at that moment of the run. They name
 * edits the agents' behaviours refer to by id, so they stay code; the files they change are content.
 */

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
