import { describe, expect, it, vi } from 'vitest';
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
