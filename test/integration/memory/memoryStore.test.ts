import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Catalog } from '../../../engine/node/catalog/Catalog';
import { MEMORY_ID_PATTERN, type MemoryRecord } from '../../../engine/memory/MemoryRecord';
import { MemoryError } from '../../../engine/node/memoryStore/MemoryError';
import { MemoryStore } from '../../../engine/node/memoryStore/MemoryStore';
import { manualClock } from '../../../engine/ports/Clock';
import { memoryTable } from '../../support/memoryCatalog';
import { tempDir } from '../../support/tempDir';
import { validProposal, withField } from '../../unit/engine/memory/proposals';
import { SECRETS } from '../../unit/engine/memory/secretSamples';

const PARTITION = 'ws_00000000000000aa';
const OTHER = 'ws_00000000000000bb';
const T0 = 1_767_225_600_000;

/** The MemoryError `fn` throws (fails the test when it throws nothing or something else). */
function memoryErrorOf(fn: () => unknown): MemoryError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(MemoryError);
    return err as MemoryError;
  }
  throw new Error('expected a MemoryError, but the call succeeded');
}

describe('MemoryStore on a real catalog', () => {
  let tmp: ReturnType<typeof tempDir>;
  let path: string;
  let catalog: Catalog;
  let clock: ReturnType<typeof manualClock>;
  let store: MemoryStore;
  let raw: Database.Database;

  beforeEach(() => {
    tmp = tempDir();
    path = join(tmp.dir, 'catalog.sqlite');
    catalog = Catalog.open(path);
    clock = manualClock(T0);
    store = MemoryStore.open(catalog, { partition: PARTITION, clock });
    raw = new Database(path, { readonly: true });
  });
  afterEach(() => {
    raw.close();
    catalog.close();
    tmp.remove();
  });

  const propose = (title = 'Build with npm run build'): MemoryRecord => {
    clock.advance(1000);
    return store.propose(withField(validProposal(), 'title', title));
  };

  const rowOf = (id: string) => raw.prepare('SELECT id, partition, state, revision, payload, updated_at FROM memory WHERE id = ?').get(id) as
    | { id: string; partition: string; state: string; revision: number; payload: string; updated_at: number }
    | undefined;

  it('[memory-cas] propose stores an unverified candidate at revision 1 in the given partition', () => {
    const r = propose();
    expect(r).toMatchObject({ schemaVersion: 2, state: 'candidate', revision: 1, verified: false, partition: PARTITION, createdAt: T0 + 1000, updatedAt: T0 + 1000 });
    expect(r.id).toMatch(MEMORY_ID_PATTERN);
    expect(store.get(r.id)).toEqual(r);
    expect(rowOf(r.id)).toEqual({ id: r.id, partition: PARTITION, state: 'candidate', revision: 1, payload: JSON.stringify(r), updated_at: T0 + 1000 });
  });

  it('[unverified-stays-unverified] a proposal cannot arrive verified, and only verify makes an entry verified', () => {
    const claims = memoryErrorOf(() => store.propose({ ...validProposal(), verified: true }));
    expect(claims.code).toBe('invalid');
    expect(claims.message).toMatch(/proposal has unknown key "verified"/);
    const sure = store.propose(withField(validProposal(), 'provenance.confidence', 1));
    expect(sure.verified).toBe(false);
    const stale = store.markStale(sure.id, 1);
    const retired = store.retire(stale.id, 2);
    expect([stale.verified, retired.verified]).toEqual([false, false]);
    const other = propose('another');
    expect(store.verify(other.id, 1)).toMatchObject({ state: 'verified', verified: true, revision: 2 });
  });

  const refusedProposals: { name: string; proposal: unknown; field: RegExp; secret?: string }[] = [
    { name: 'a GitHub token in the body', proposal: withField(validProposal(), 'body', `Use ${SECRETS.github} to push.`), field: /^Refused by the memory intake: body: contains a GitHub token$/, secret: SECRETS.github },
    { name: 'an AWS key in a command', proposal: withField(validProposal(), 'evidence.commands.0.command', `AWS_ACCESS_KEY_ID=${SECRETS.aws} npm run deploy`), field: /evidence\.commands\[0\]\.command: contains an AWS access key id/, secret: SECRETS.aws },
    { name: 'a password assignment in the title', proposal: withField(validProposal(), 'title', SECRETS.assignment), field: /^Refused by the memory intake: title: contains a value assigned to a secret field/, secret: 'hunter2hunter2' },
    { name: 'a control character in the title', proposal: withField(validProposal(), 'title', 'Build\u0007 it'), field: /^Refused by the memory intake: title: contains control character U\+0007$/ },
    { name: 'a bidi override in the body', proposal: withField(validProposal(), 'body', 'ok \u202e evil'), field: /^Refused by the memory intake: body: contains a bidirectional control character U\+202E$/ },
    { name: 'an over-long title', proposal: withField(validProposal(), 'title', 't'.repeat(201)), field: /^Refused by the memory intake: title is 201 characters \(limit 200\)$/ },
    { name: 'an over-long body', proposal: withField(validProposal(), 'body', 'b'.repeat(4001)), field: /^Refused by the memory intake: body is 4001 characters \(limit 4000\)$/ },
    { name: 'an absolute evidence path', proposal: withField(validProposal(), 'evidence.paths.1', '/home/u/proj/src/a.ts'), field: /^Refused by the memory intake: evidence\.paths\[1\] is absolute \(starts with '\/'\)$/ },
    { name: 'a Windows evidence path', proposal: withField(validProposal(), 'evidence.paths.0', 'C:\\proj\\a.ts'), field: /^Refused by the memory intake: evidence\.paths\[0\] contains a backslash/ },
    { name: 'a parent-directory evidence path', proposal: withField(validProposal(), 'evidence.paths.2', 'src/../../etc/passwd'), field: /evidence\.paths\[2\] has a '\.\.' segment/ },
  ];

  it.each(refusedProposals)('[memory-intake] propose refuses $name with MemoryError(invalid) naming the field, and writes nothing', ({ proposal, field, secret }) => {
    propose('already there');
    const before = memoryTable(raw);
    const err = memoryErrorOf(() => store.propose(proposal));
    expect(err.code).toBe('invalid');
    expect(err.message).toMatch(field);
    if (secret !== undefined) expect(err.message).not.toContain(secret);
    expect(memoryTable(raw)).toBe(before);
  });

  it('[memory-cas] every write bumps the revision by exactly one, in the payload and the row', () => {
    const r = propose();
    const steps: [string, (rev: number) => MemoryRecord, MemoryRecord['state']][] = [
      ['verify', (rev) => store.verify(r.id, rev), 'verified'],
      ['markStale', (rev) => store.markStale(r.id, rev), 'stale'],
      ['verify', (rev) => store.verify(r.id, rev), 'verified'],
      ['retire', (rev) => store.retire(r.id, rev), 'retired'],
      ['delete', (rev) => store.delete(r.id, rev), 'deleted'],
    ];
    let revision = 1;
    for (const [, step, state] of steps) {
      clock.advance(10);
      const next = step(revision);
      expect(next).toMatchObject({ revision: revision + 1, state, updatedAt: clock.now(), createdAt: r.createdAt });
      expect(rowOf(r.id)).toMatchObject({ revision: revision + 1, state, payload: JSON.stringify(next) });
      revision++;
    }
  });

  const transitions: [string, (s: MemoryStore, id: string, rev: number) => MemoryRecord][] = [
    ['verify', (s, id, rev) => s.verify(id, rev)],
    ['retire', (s, id, rev) => s.retire(id, rev)],
    ['markStale', (s, id, rev) => s.markStale(id, rev)],
    ['delete', (s, id, rev) => s.delete(id, rev)],
  ];

  it.each(transitions)('[memory-cas] %s at a stale revision is a conflict naming both revisions, and writes nothing', (_, op) => {
    const r = propose();
    store.markStale(r.id, 1);
    const before = memoryTable(raw);
    for (const stale of [1, 3, 0]) {
      const err = memoryErrorOf(() => op(store, r.id, stale));
      expect(err.code).toBe('conflict');
      expect(err.message).toContain(`is at revision 2, not ${stale}`);
    }
    expect(memoryTable(raw)).toBe(before);
  });

  it.each(transitions)('[memory-cas] %s of an unknown id is not_found, and writes nothing', (_, op) => {
    propose();
    const before = memoryTable(raw);
    const err = memoryErrorOf(() => op(store, 'mem_doesnotexist00', 1));
    expect(err.code).toBe('not_found');
    expect(err.message).toContain('mem_doesnotexist00');
    expect(memoryTable(raw)).toBe(before);
  });

  const wrongFrom: [string, MemoryRecord['state'], (s: MemoryStore, id: string, rev: number) => MemoryRecord][] = [
    ['verify', 'verified', (s, id, rev) => s.verify(id, rev)],
    ['verify', 'retired', (s, id, rev) => s.verify(id, rev)],
    ['verify', 'deleted', (s, id, rev) => s.verify(id, rev)],
    ['retire', 'retired', (s, id, rev) => s.retire(id, rev)],
    ['retire', 'deleted', (s, id, rev) => s.retire(id, rev)],
    ['markStale', 'stale', (s, id, rev) => s.markStale(id, rev)],
    ['markStale', 'retired', (s, id, rev) => s.markStale(id, rev)],
    ['delete', 'deleted', (s, id, rev) => s.delete(id, rev)],
  ];

  /** An entry brought to `state`, and its revision. */
  const entryIn = (state: MemoryRecord['state']): MemoryRecord => {
    const r = propose(`entry in ${state}`);
    const path: Record<MemoryRecord['state'], ((x: MemoryRecord) => MemoryRecord)[]> = {
      candidate: [],
      verified: [(x) => store.verify(x.id, x.revision)],
      stale: [(x) => store.markStale(x.id, x.revision)],
      retired: [(x) => store.retire(x.id, x.revision)],
      deleted: [(x) => store.delete(x.id, x.revision)],
    };
    return path[state].reduce((x, f) => f(x), r);
  };

  it.each(wrongFrom)('[memory-cas] %s of a %s entry is invalid, and writes nothing', (_, state, op) => {
    const r = entryIn(state);
    expect(r.state).toBe(state);
    const before = memoryTable(raw);
    const err = memoryErrorOf(() => op(store, r.id, r.revision));
    expect(err.code).toBe('invalid');
    expect(err.message).toContain(`is ${state}; this change needs`);
    expect(memoryTable(raw)).toBe(before);
  });

  it('[memory-cas] two stores of one partition: the slower writer gets a conflict', () => {
    const r = propose();
    const second = MemoryStore.open(catalog, { partition: PARTITION, clock });
    second.verify(r.id, 1);
    const before = memoryTable(raw);
    const err = memoryErrorOf(() => store.retire(r.id, 1));
    expect(err.code).toBe('conflict');
    expect(err.message).toContain('is at revision 2, not 1');
    expect(memoryTable(raw)).toBe(before);
    expect(store.get(r.id)).toMatchObject({ state: 'verified', revision: 2 });
  });

  it('[memory-cas] proposing the same entry twice (same seed) is a conflict, not an overwrite', () => {
    const r = store.propose(validProposal(), 'seed-1');
    const before = memoryTable(raw);
    const err = memoryErrorOf(() => store.propose(withField(validProposal(), 'body', 'different'), 'seed-1'));
    expect(err.code).toBe('conflict');
    expect(err.message).toContain(r.id);
    expect(memoryTable(raw)).toBe(before);
  });

  it('list filters by state, newest first, and returns only its own partition', () => {
    const a = propose('a');
    const b = propose('b');
    const c = propose('c');
    clock.advance(10);
    store.verify(b.id, 1);
    clock.advance(10);
    store.retire(c.id, 1);
    const other = MemoryStore.open(catalog, { partition: OTHER, clock });
    clock.advance(10);
    const foreign = other.propose(withField(validProposal(), 'title', 'foreign'));
    clock.advance(10);
    other.verify(foreign.id, 1);

    expect(store.list().map((r) => r.title)).toEqual(['c', 'b', 'a']);
    expect(store.list(['verified']).map((r) => r.id)).toEqual([b.id]);
    expect(store.list(['candidate', 'retired']).map((r) => r.id)).toEqual([c.id, a.id]);
    expect(store.list(['stale'])).toEqual([]);
    expect(other.list().map((r) => r.id)).toEqual([foreign.id]);
    expect((raw.prepare('SELECT count(*) AS n FROM memory').get() as { n: number }).n).toBe(4);

    expect(store.get(foreign.id)).toBeUndefined();
    expect(other.get(a.id)).toBeUndefined();
    expect(memoryErrorOf(() => store.retire(foreign.id, 2)).code).toBe('not_found');
    expect(other.get(foreign.id)).toMatchObject({ state: 'verified', revision: 2 });
  });

  it('[erasure] purge of one partition leaves the other partition\'s rows alone', () => {
    propose('mine');
    const other = MemoryStore.open(catalog, { partition: OTHER, clock });
    const foreign = other.propose(withField(validProposal(), 'title', 'foreign'));
    expect(store.purge().deleted).toBe(1);
    expect(store.list()).toEqual([]);
    expect(other.list()).toEqual([foreign]);
  });
});
