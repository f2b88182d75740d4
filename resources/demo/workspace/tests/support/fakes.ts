import { vi } from 'vitest';
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
