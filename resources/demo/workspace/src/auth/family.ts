import { randomUUID } from 'node:crypto';
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
