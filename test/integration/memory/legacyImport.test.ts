import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Catalog } from '../../../engine/node/catalog/Catalog';
import { importLegacyCatalog, registerLegacyMemoryIntake } from '../../../engine/node/catalog/legacyImport';
import { MEMORY_GUARD_TRIGGERS } from '../../../engine/node/catalog/memoryGuard';
import { intakeRecord } from '../../../engine/memory/intake';
import { partitionId } from '../../../engine/memory/partitionId';
import { MemoryStore } from '../../../engine/node/memoryStore/MemoryStore';
import { manualClock } from '../../../engine/ports/Clock';
import { dumpCatalog } from '../../support/catalogDump';
import { bytesHold, guardTriggers, INSERT_MEMORY, rowOf, withRaw, writeLegacyCatalog, type LegacyRow } from '../../support/memoryCatalog';
import { tempDir } from '../../support/tempDir';
import { validRecord } from '../../unit/engine/memory/proposals';
import { SECRETS } from '../../unit/engine/memory/secretSamples';

const WORKSPACE = '/home/u/proj';
const OTHER_WORKSPACE = '/home/u/other';
const T0 = 1_767_225_600_000;
const CREATED = 1_700_000_000_000;
const GITHUB_TOKEN = SECRETS.github!;

const v1 = (payload: Record<string, unknown>, workspace = WORKSPACE): Record<string, unknown> => ({ schemaVersion: 1, workspace, createdAt: CREATED, ...payload });
const legacyRow = (id: string, payload: Record<string, unknown> | string | null, workspace = WORKSPACE): LegacyRow => ({
  id,
  workspace,
  payload: payload === null || typeof payload === 'string' ? payload : JSON.stringify(v1(payload, workspace)),
});

/** Four rows the intake accepts, five it refuses. */
const ROWS: LegacyRow[] = [
  legacyRow('1', { text: 'Run npm test before pushing\nIt takes two minutes.', paths: ['package.json'] }),
  legacyRow('2', { text: 'The parser caches tokens per file.', title: 'Parser cache', kind: 'convention', paths: ['src/parser.ts', 'src/lexer.ts'] }),
  legacyRow('3', { text: 'Releases are cut from main.', verified: true, state: 'verified', confidence: 1 }),
  legacyRow('4', { text: 'The other project builds with make.' }, OTHER_WORKSPACE),
  legacyRow('5', { text: `Deploy with ${GITHUB_TOKEN} as the token.` }),
  legacyRow('6', { text: 'x'.repeat(4001) }),
  legacyRow('7', { text: 'Entry point noted.', paths: ['/home/u/proj/src/main.ts'] }),
  legacyRow('8', { text: 'Already new?', schemaVersion: 2 }),
  legacyRow('9', { text: 'From the future.', schemaVersion: 3 }),
];

const REFUSED_REASONS = {
  // The title is the text's first line, checked first.
  'title: contains a GitHub token': 1,
  'body is 4001 characters': 1,
  'evidence.paths[0] is absolute': 1,
  'not a version-1 memory payload': 2,
};

describe('[legacy-import] importing a version-1 catalog', () => {
  let tmp: ReturnType<typeof tempDir>;
  let path: string;
  let legacyPath: string;
  let catalog: Catalog;
  let clock: ReturnType<typeof manualClock>;
  let store: MemoryStore;

  beforeEach(() => {
    tmp = tempDir();
    path = join(tmp.dir, 'catalog.sqlite');
    legacyPath = join(tmp.dir, 'legacy-v1.sqlite');
    catalog = Catalog.open(path);
    clock = manualClock(T0);
    store = MemoryStore.open(catalog, { partition: partitionId(WORKSPACE), clock });
  });
  afterEach(() => {
    catalog.close();
    tmp.remove();
  });

  const triggersNow = () => withRaw(path, guardTriggers, { readonly: true });
  const guardRefusesLegacyPayload = () =>
    withRaw(path, (db) => {
      expect(() => db.prepare(INSERT_MEMORY).run({ ...rowOf(validRecord(), JSON.stringify(v1({ text: 'raw' }))), partition: WORKSPACE })).toThrow(/^memory guard: /);
    });

  it('[legacy-import] imports valid rows as unverified schema-2 candidates in partitionId(workspace), and drops the rest with reasons', () => {
    writeLegacyCatalog(legacyPath, ROWS);
    const report = store.importLegacy(legacyPath);
    expect(report).toEqual({ imported: 4, dropped: 5, reasons: REFUSED_REASONS });

    const mine = store.list();
    expect(mine).toHaveLength(3);
    for (const r of mine) {
      expect(intakeRecord(r)).toEqual({ ok: true, record: r });
      expect(r).toMatchObject({ schemaVersion: 2, state: 'candidate', revision: 1, verified: false, partition: partitionId(WORKSPACE), createdAt: T0, updatedAt: T0 });
      expect(r.provenance).toMatchObject({ source: 'legacy_import', observedAt: CREATED });
    }
    const byBody = Object.fromEntries(mine.map((r) => [r.body, r]));
    expect(byBody['Run npm test before pushing\nIt takes two minutes.']).toMatchObject({ title: 'Run npm test before pushing', kind: 'finding', evidence: { paths: ['package.json'] } });
    expect(byBody['The parser caches tokens per file.']).toMatchObject({ title: 'Parser cache', kind: 'convention', evidence: { paths: ['src/parser.ts', 'src/lexer.ts'] } });
    // The legacy payload said verified: the import does not believe it ([unverified-stays-unverified]).
    expect(byBody['Releases are cut from main.']).toMatchObject({ state: 'candidate', verified: false });

    const other = MemoryStore.open(catalog, { partition: partitionId(OTHER_WORKSPACE), clock });
    expect(other.list().map((r) => r.body)).toEqual(['The other project builds with make.']);

    // An imported entry is an ordinary entry: the guard accepts its next revision.
    const releases = byBody['Releases are cut from main.']!;
    expect(store.verify(releases.id, 1)).toMatchObject({ state: 'verified', verified: true, revision: 2 });
  });

  it('[legacy-import] never stores the raw workspace path or a refused secret (catalog bytes after a checkpoint)', () => {
    writeLegacyCatalog(legacyPath, ROWS);
    store.importLegacy(legacyPath);
    expect(withRaw(path, (db) => db.prepare('SELECT DISTINCT partition FROM memory ORDER BY partition').all())).toEqual(
      [partitionId(OTHER_WORKSPACE), partitionId(WORKSPACE)].sort().map((partition) => ({ partition })),
    );
    withRaw(path, (db) => db.pragma('wal_checkpoint(TRUNCATE)'));
    // Sanity: the legacy file itself holds every one of them.
    const legacyBytes = readFileSync(legacyPath);
    for (const s of [WORKSPACE, OTHER_WORKSPACE, GITHUB_TOKEN]) expect(legacyBytes.includes(Buffer.from(s))).toBe(true);
    for (const s of [WORKSPACE, OTHER_WORKSPACE, GITHUB_TOKEN, 'x'.repeat(4001)]) {
      expect({ s: s.slice(0, 20), ...bytesHold(path, s) }).toMatchObject({ s: s.slice(0, 20), main: false, wal: false });
    }
  });

  it('[legacy-import] the guard is in place after the import', () => {
    writeLegacyCatalog(legacyPath, ROWS);
    store.importLegacy(legacyPath);
    expect(triggersNow()).toEqual([...MEMORY_GUARD_TRIGGERS].sort());
    guardRefusesLegacyPayload();
  });

  it('[legacy-import] a payload that is not JSON fails the whole import: nothing is written and the guard stays', () => {
    writeLegacyCatalog(legacyPath, [...ROWS.slice(0, 4), legacyRow('bad', '{"schemaVersion":1,"text":"cut off'), ...ROWS.slice(4)]);
    const before = dumpCatalog(path);
    expect(() => store.importLegacy(legacyPath)).toThrow(/^Legacy import failed: row 5 \(id "bad"\) is not JSON; nothing was imported\.$/);
    expect(dumpCatalog(path)).toEqual(before);
    expect(store.list()).toEqual([]);
    expect(triggersNow()).toEqual([...MEMORY_GUARD_TRIGGERS].sort());
    guardRefusesLegacyPayload();
  });

  it('[legacy-import] without a registered intake the import is refused and writes nothing', () => {
    writeLegacyCatalog(legacyPath, ROWS);
    registerLegacyMemoryIntake(undefined);
    const before = dumpCatalog(path);
    expect(() => importLegacyCatalog(catalog, legacyPath)).toThrow(/^Legacy import refused: no memory intake is registered/);
    expect(() => store.importLegacy(legacyPath)).toThrow(/no memory intake is registered/);
    expect(dumpCatalog(path)).toEqual(before);
    expect(triggersNow()).toEqual([...MEMORY_GUARD_TRIGGERS].sort());
  });

  it('[legacy-import] importing the same file twice imports nothing the second time ("already imported")', () => {
    writeLegacyCatalog(legacyPath, ROWS);
    expect(store.importLegacy(legacyPath).imported).toBe(4);
    const before = dumpCatalog(path);
    clock.advance(60_000);
    expect(store.importLegacy(legacyPath)).toEqual({ imported: 0, dropped: 9, reasons: { 'already imported': 4, ...REFUSED_REASONS } });
    expect(dumpCatalog(path)).toEqual(before);
  });

  it('[legacy-import] a file that is not a version-1 catalog is refused and writes nothing', () => {
    withRaw(legacyPath, (db) => db.exec('CREATE TABLE notes(x TEXT)'));
    const before = dumpCatalog(path);
    expect(() => store.importLegacy(legacyPath)).toThrow(/is not a version-1 Strata catalog \(no memory table\)/);
    expect(() => store.importLegacy(join(tmp.dir, 'missing.sqlite'))).toThrow(/Cannot open the legacy catalog/);
    expect(dumpCatalog(path)).toEqual(before);
  });

  it('[legacy-import] a row with a NULL payload is not imported (dropped and counted)', () => {
    writeLegacyCatalog(legacyPath, [ROWS[0]!, legacyRow('null', null)]);
    expect(store.importLegacy(legacyPath)).toEqual({ imported: 1, dropped: 1, reasons: { 'not a version-1 memory payload': 1 } });
  });

  it('[legacy-import] a first line longer than a title, cut next to an emoji, is still imported', () => {
    // The title is cut to 199 UTF-16 units plus '…'; unit 199 here is the high half of '😀'.
    const text = `${'a'.repeat(198)}😀${'b'.repeat(40)}\nsecond line`;
    writeLegacyCatalog(legacyPath, [legacyRow('long', { text })]);
    const report = store.importLegacy(legacyPath);
    expect(report).toEqual({ imported: 1, dropped: 0, reasons: {} });
    expect(store.list()[0]?.body).toBe(text);
  });

  it('[legacy-import] stores the intake\'s normalized record (a leading ./ removed from paths), as propose does', () => {
    writeLegacyCatalog(legacyPath, [legacyRow('dot', { text: 'Lexer notes.', paths: ['./src/lexer.ts', 'src/parser.ts'] })]);
    expect(store.importLegacy(legacyPath).imported).toBe(1);
    expect(store.list()[0]?.evidence.paths).toEqual(['src/lexer.ts', 'src/parser.ts']);
  });
});
