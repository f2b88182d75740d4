import { beforeEach, describe, expect, it } from 'vitest';
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
