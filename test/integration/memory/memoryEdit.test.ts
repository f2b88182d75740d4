import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Catalog } from '../../../engine/node/catalog/Catalog';
import { MemoryError } from '../../../engine/node/memoryStore/MemoryError';
import { MemoryStore } from '../../../engine/node/memoryStore/MemoryStore';
import { manualClock } from '../../../engine/ports/Clock';
import { dumpCatalog } from '../../support/catalogDump';
import { tempDir } from '../../support/tempDir';
import { validProposal } from '../../unit/engine/memory/proposals';
import { SECRETS } from '../../unit/engine/memory/secretSamples';

const PARTITION = 'ws_00000000000000aa';
const T0 = 1_767_225_600_000;

function memoryErrorOf(fn: () => unknown): MemoryError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(MemoryError);
    return err as MemoryError;
  }
  throw new Error('expected a MemoryError, but the call succeeded');
}

describe('MemoryStore edit and unverify on a real catalog (issue 22, items 11 and 13)', () => {
  let tmp: ReturnType<typeof tempDir>;
  let path: string;
  let catalog: Catalog;
  let clock: ReturnType<typeof manualClock>;
  let store: MemoryStore;

  beforeEach(() => {
    tmp = tempDir();
    path = join(tmp.dir, 'catalog.sqlite');
    catalog = Catalog.open(path);
    clock = manualClock(T0);
    store = MemoryStore.open(catalog, { partition: PARTITION, clock });
  });
  afterEach(() => {
    catalog.close();
    tmp.remove();
  });

  const verified = () => {
    const c = store.propose(validProposal());
    return store.verify(c.id, c.revision);
  };

  it('[memory-edit] an edit of a verified entry lands at the next revision as a candidate with the new text; kind, evidence and provenance stay', () => {
    const v = verified();
    clock.advance(1000);
    const e = store.edit(v.id, v.revision, { title: '  Build with pnpm  ', body: 'Run pnpm build, not npm.' });
    expect(e).toMatchObject({ id: v.id, revision: v.revision + 1, state: 'candidate', verified: false, title: 'Build with pnpm', body: 'Run pnpm build, not npm.', updatedAt: T0 + 1000 });
    expect({ kind: e.kind, evidence: e.evidence, provenance: e.provenance, createdAt: e.createdAt }).toEqual({ kind: v.kind, evidence: v.evidence, provenance: v.provenance, createdAt: v.createdAt });
    expect(store.get(v.id)).toEqual(e);
    // No longer recalled until verified again.
    expect(store.list(['verified'])).toEqual([]);
    expect(store.verify(e.id, e.revision).state).toBe('verified');
  });

  it('[memory-edit] a stale or candidate entry edited becomes a candidate; only the body may be given', () => {
    const c = store.propose(validProposal());
    const stale = store.markStale(c.id, c.revision);
    const e = store.edit(stale.id, stale.revision, { body: 'A new body.' });
    expect(e).toMatchObject({ state: 'candidate', title: c.title, body: 'A new body.', revision: stale.revision + 1 });
    expect(store.edit(e.id, e.revision, { title: 'Renamed' })).toMatchObject({ state: 'candidate', title: 'Renamed', body: 'A new body.' });
  });

  it.each([
    ['an empty body', { body: '   ' }, /body is empty/],
    ['an empty title', { title: '' }, /title is empty/],
    ['a body over the limit', { body: 'x'.repeat(4001) }, /body is 4001 characters \(limit 4000\)/],
    ['a title with a line break', { title: 'one\ntwo' }, /title has a line break/],
    ['a body with a secret', { body: `Use ${SECRETS.github!} to push.` }, /body: contains a GitHub token/],
    ['a body with a bidi override', { body: 'abc\u202edef' }, /bidirectional/],
    ['no change at all', {}, /changes neither the title nor the body/],
  ])('[memory-edit] refuses %s with a reason, and writes nothing', (_name, text, reason) => {
    const v = verified();
    const before = dumpCatalog(path);
    const err = memoryErrorOf(() => store.edit(v.id, v.revision, text));
    expect(err.code).toBe('invalid');
    expect(err.message).toMatch(reason);
    if ('body' in text && text.body.includes(SECRETS.github!)) expect(err.message).not.toContain(SECRETS.github!);
    expect(dumpCatalog(path)).toEqual(before);
  });

  it('[memory-edit] [memory-cas] an edit naming a stale revision is a conflict, and a retired or deleted entry cannot be edited', () => {
    const v = verified();
    expect(memoryErrorOf(() => store.edit(v.id, v.revision - 1, { body: 'late' })).code).toBe('conflict');
    const r = store.retire(v.id, v.revision);
    expect(memoryErrorOf(() => store.edit(r.id, r.revision, { body: 'again' })).message).toMatch(/is retired; this change needs candidate or verified or stale/);
    expect(memoryErrorOf(() => store.edit('mem_doesnotexist1', 1, { body: 'x' })).code).toBe('not_found');
  });

  it('[memory-unverify] undoes a verify: back to candidate at the next revision, text unchanged, out of recall; other states are refused', () => {
    const v = verified();
    const u = store.unverify(v.id, v.revision);
    expect(u).toMatchObject({ state: 'candidate', verified: false, revision: v.revision + 1, title: v.title, body: v.body });
    expect(store.list(['verified'])).toEqual([]);
    expect(memoryErrorOf(() => store.unverify(u.id, u.revision)).message).toMatch(/is candidate; this change needs verified/);
    expect(memoryErrorOf(() => store.unverify(u.id, u.revision - 1)).code).toBe('conflict');
  });

  it('[memory-guard-transitions] [memory-edit] the guard lets the text change only as an edit writes it (to candidate), never kept verified or stale', () => {
    const v = verified();
    const raw = new Database(path);
    try {
      const row = raw.prepare('SELECT payload FROM memory WHERE id = ?').get(v.id) as { payload: string };
      const write = (patch: Record<string, unknown>) =>
        raw
          .prepare('UPDATE memory SET state = ?, revision = ?, payload = ? WHERE id = ?')
          .run(patch.state, v.revision + 1, JSON.stringify({ ...JSON.parse(row.payload), ...patch, revision: v.revision + 1 }), v.id);
      expect(() => write({ state: 'verified', verified: true, body: 'Raw rewrite' })).toThrow(/title and body change only by an edit/);
      expect(() => write({ state: 'stale', verified: false, title: 'Raw rename' })).toThrow(/title and body change only by an edit/);
      expect(() => write({ state: 'candidate', verified: false, kind: 'decision' })).toThrow(/content \(kind, evidence, provenance, createdAt\) never changes/);
      expect(write({ state: 'candidate', verified: false, body: 'Written as an edit writes it' }).changes).toBe(1);
    } finally {
      raw.close();
    }
  });
});
