import type { EditId } from './demoEdits';
import type { Rng } from './prng';

/**
 * The test cases of the demo repository and when each passes: a case passes once the edits it
 * needs are in, and fails the way the code at that moment would make it fail (an assertion, or a
 * 500 from a half-landed change). A case exists once its `it(...)` line is in its spec file.
 */

/** What a test run may ask of the repository at that moment. */
interface SpecWorld {
  has(edit: EditId): boolean;
  /** 1-based line of the first line containing `snippet` in the current file, or 0. */
  lineOf(path: string, snippet: string): number;
  /** The run's own stream: a race fails intermittently. */
  rng: Rng;
}

export interface SpecFailure {
  /** The error as vitest prints it (first line `Name: message`). */
  error: string;
  /** Text of the failing line, searched within the case's body. */
  at: string;
  /** What the server wrote to stderr while the case ran. */
  stderr?: string;
}

export interface SpecCase {
  file: string;
  suite: string;
  name: string;
  /** The edits it needs to pass. */
  needs: EditId[];
  fail(w: SpecWorld): SpecFailure | undefined;
}

export const SPEC_FILES = ['tests/unit/family.spec.ts', 'tests/unit/middleware.spec.ts', 'tests/unit/store.spec.ts', 'tests/integration/refresh.spec.ts'] as const;

const REFRESH = 'tests/integration/refresh.spec.ts';

/** The server-side error of a refresh that calls markRotated() before the store has it. */
function missingMarkRotated(w: SpecWorld): string {
  const line = w.lineOf('src/auth/refresh.ts', 'deps.store.markRotated(');
  return `TypeError: deps.store.markRotated is not a function\n    at refresh (src/auth/refresh.ts:${line}:28)\n    at async POST /auth/refresh (src/routes/auth.ts:${w.lineOf('src/routes/auth.ts', 'await refresh(deps')}:20)`;
}

const halfLanded = (w: SpecWorld) => w.has('R2') && !w.has('S4');

export const SPEC_CASES: readonly SpecCase[] = [
  { file: REFRESH, suite: 'refresh-token rotation', name: 'issues a token pair on login', needs: [], fail: () => undefined },
  {
    file: REFRESH,
    suite: 'refresh-token rotation',
    name: 'rotates the refresh token on every refresh', needs: ['R2', 'S4', 'Ro1'],
    fail: (w) => {
      if (halfLanded(w)) return { error: 'AssertionError: expected 500 to be 200 // Object.is equality', at: 'expect(next.status).toBe(200);', stderr: missingMarkRotated(w) };
      if (!w.has('R2') || !w.has('Ro1')) return { error: "AssertionError: expected 'rt_Qm9zZWNyZXQ…' not to be 'rt_Qm9zZWNyZXQ…' // Object.is equality", at: 'expect(next.cookies.rt).not.toBe(login.cookies.rt);' };
      return undefined;
    },
  },
  {
    file: REFRESH,
    suite: 'refresh-token rotation',
    name: 'reusing a rotated token revokes the whole family', needs: ['R2', 'S4', 'F1'],
    fail: (w) => {
      if (halfLanded(w)) return { error: 'AssertionError: expected 500 to be 401 // Object.is equality', at: 'expect(replay.status).toBe(401);', stderr: missingMarkRotated(w) };
      if (!w.has('R2') || !w.has('F1')) return { error: 'AssertionError: expected 200 to be 401 // Object.is equality', at: 'expect(replay.status).toBe(401);' };
      return undefined;
    },
  },
  { file: REFRESH, suite: 'refresh-token rotation', name: 'refuses an expired refresh token', needs: [], fail: () => undefined },
  {
    file: REFRESH,
    suite: 'refresh-token rotation',
    name: 'concurrent refresh keeps one family', needs: ['R2', 'S4', 'CAS'],
    fail: (w) => {
      const at = 'expect(results.filter((r) => r.status === 200)).toHaveLength(1);';
      if (halfLanded(w)) return { error: 'AssertionError: expected [] to have a length of 1 but got +0', at, stderr: missingMarkRotated(w) };
      if (!w.has('R2')) return { error: 'AssertionError: expected [ { status: 200, …(2) }, …(4) ] to have a length of 1 but got 5', at };
      if (w.has('CAS')) return undefined;
      // Read-then-write markRotated(): the five refreshes usually interleave and more than one wins.
      if (!w.rng.chance(0.8)) return undefined;
      const won = w.rng.int(2, 3);
      return { error: `AssertionError: expected [ { status: 200, …(2) }, …(${won - 1}) ] to have a length of 1 but got ${won}`, at };
    },
  },
  {
    file: REFRESH,
    suite: 'refresh-token rotation',
    name: 'a legacy session without a family keeps working', needs: ['R2', 'S4'],
    fail: (w) => {
      if (halfLanded(w)) return { error: 'AssertionError: expected 500 to be 200 // Object.is equality', at: 'expect(next.status).toBe(200);', stderr: missingMarkRotated(w) };
      if (!w.has('R2')) return { error: 'AssertionError: expected null to match /^fam_/', at: 'expect(await api.familyOf(next.cookies.rt)).toMatch(/^fam_/);' };
      return undefined;
    },
  },
  { file: 'tests/unit/family.spec.ts', suite: 'assertNotReused', name: 'passes a token that was never rotated', needs: [], fail: () => undefined },
  {
    file: 'tests/unit/family.spec.ts',
    suite: 'assertNotReused',
    name: 'revokes the family when a rotated token is reused', needs: ['F1'],
    fail: (w) => (w.has('F1') ? undefined : { error: 'AssertionError: promise resolved "undefined" instead of rejecting', at: '.rejects.toBeInstanceOf(AuthError);' }),
  },
  {
    file: 'tests/unit/family.spec.ts',
    suite: 'assertNotReused',
    name: 'logs the family and the user, never the token or its hash', needs: ['F1'],
    fail: (w) => (w.has('F1') ? undefined : { error: 'AssertionError: expected "warn" to be called 1 times, but got 0 times', at: 'expect(warn).toHaveBeenCalledTimes(1);' }),
  },
  { file: 'tests/unit/middleware.spec.ts', suite: 'requireSession', name: 'rejects a missing bearer token', needs: [], fail: () => undefined },
  { file: 'tests/unit/middleware.spec.ts', suite: 'requireSession', name: 'answers 401 for an expired token', needs: [], fail: () => undefined },
  {
    file: 'tests/unit/middleware.spec.ts',
    suite: 'requireSession',
    name: 'never logs the presented token', needs: ['Me1'],
    fail: (w) =>
      w.has('Me1')
        ? undefined
        : { error: 'AssertionError: expected \'[["rejected access token",{"token":"eyJhbGciOiJIUzI1NiJ9.e30.sig","reason":"jwt malformed"}]]\' not to contain \'eyJhbGciOiJIUzI1NiJ9.e30.sig\'', at: 'not.toContain(' },
  },
  {
    file: 'tests/unit/store.spec.ts',
    suite: 'PgRefreshTokenStore',
    name: 'insert stores the family id', needs: ['M1', 'S1', 'S3', 'S5'],
    fail: (w) => {
      if (w.has('S3') && !w.has('M1')) return { error: 'error: column "family_id" of relation "refresh_tokens" does not exist', at: 'await store.insert(' };
      if (!w.has('S1') || !w.has('S3') || !w.has('S5')) return { error: "AssertionError: expected undefined to be 'fam_1' // Object.is equality", at: ".toBe('fam_1');" };
      return undefined;
    },
  },
  {
    file: 'tests/unit/store.spec.ts',
    suite: 'PgRefreshTokenStore',
    name: 'markRotated sets rotated_at once', needs: ['S4'],
    fail: (w) => (w.has('S4') ? undefined : { error: 'TypeError: store.markRotated is not a function', at: 'store.markRotated(' }),
  },
  {
    file: 'tests/unit/store.spec.ts',
    suite: 'PgRefreshTokenStore',
    name: 'revokeFamily revokes every live token of the family', needs: ['S4'],
    fail: (w) => (w.has('S4') ? undefined : { error: 'TypeError: store.revokeFamily is not a function', at: 'store.revokeFamily(' }),
  },
];
