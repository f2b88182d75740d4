import Database from 'better-sqlite3';
import fc from 'fast-check';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../../engine/node/catalog/Catalog';
import * as limit from '../../../engine/memory/intakeLimits';
import { memoryStates, PARTITION_PATTERN, type MemoryProposal, type MemoryRecord } from '../../../engine/memory/MemoryRecord';
import { MemoryError } from '../../../engine/node/memoryStore/MemoryError';
import { MemoryStore } from '../../../engine/node/memoryStore/MemoryStore';
import { manualClock } from '../../../engine/ports/Clock';
import { INSERT_MEMORY, memoryTable, rowOf, UPDATE_MEMORY, type MemoryRow } from '../../support/memoryCatalog';
import { tempDir } from '../../support/tempDir';
import { REMOVE, validProposal, validRecord, withField } from '../../unit/engine/memory/proposals';
import { SECRETS } from '../../unit/engine/memory/secretSamples';

/**
 * Bad input, through both doors: malformed proposals through `MemoryStore.propose` (the intake)
 * and malformed rows through raw SQL (the guard). Every case must be refused with a reason and
 * leave `SELECT * FROM memory ORDER BY id` byte-for-byte as it was. Fixed seed, so a failure
 * reproduces. Counted cases: the tables below plus 450 + 350 + 300 fast-check runs.
 */
const SEED = 20261129;
const PARTITION = 'ws_00000000000000cc';
const T0 = 1_767_225_600_000;

let tmp: ReturnType<typeof tempDir>;
let catalog: Catalog;
let store: MemoryStore;
let raw: Database.Database;
/** Existing rows the raw updates target: [id, revision]. */
let targets: [string, number][];
let cases = 0;

beforeAll(() => {
  tmp = tempDir();
  const path = join(tmp.dir, 'catalog.sqlite');
  catalog = Catalog.open(path);
  const clock = manualClock(T0);
  store = MemoryStore.open(catalog, { partition: PARTITION, clock });
  const made = [0, 1, 2].map((n) => {
    clock.advance(1);
    return store.propose(withField(validProposal(), 'title', `seed entry ${n}`));
  });
  store.verify(made[1]!.id, 1);
  store.markStale(made[2]!.id, 1);
  store.verify(made[2]!.id, 2);
  targets = made.map((r) => [r.id, store.get(r.id)!.revision]);
  raw = new Database(path);
});
afterAll(() => {
  raw.close();
  catalog.close();
  tmp.remove();
  console.log(`bad input: ${cases} malformed proposals and rows refused, memory table unchanged after each`);
});

// ---- the two doors ----------------------------------------------------------------------------

/** Propose `input`; it must be refused as invalid with a reason, without the secret, and write nothing. */
function expectProposalRefused(input: unknown, secret?: string): void {
  const before = memoryTable(raw);
  let error: unknown;
  try {
    store.propose(input);
  } catch (err) {
    error = err;
  }
  expect(error).toBeInstanceOf(MemoryError);
  const e = error as MemoryError;
  expect(e.code).toBe('invalid');
  expect(e.message).toMatch(/^Refused by the memory intake: \S.{3,}/s);
  if (secret !== undefined) expect(e.message).not.toContain(secret);
  expect(memoryTable(raw)).toBe(before);
  cases++;
}

/** Run a raw write; it must throw with a non-empty reason and write nothing. */
function expectRawRefused(write: () => unknown): string {
  const before = memoryTable(raw);
  let reason: string | undefined;
  try {
    write();
  } catch (err) {
    reason = (err as Error).message;
  }
  expect(reason, 'the database accepted the row').toBeDefined();
  expect(reason!.trim().length).toBeGreaterThan(0);
  expect(memoryTable(raw)).toBe(before);
  cases++;
  return reason!;
}

const insertRow = (row: MemoryRow) => () => raw.prepare(INSERT_MEMORY).run(row);
const updateRow = (row: MemoryRow, where: string) => () => raw.prepare(UPDATE_MEMORY).run({ ...row, where });

// ---- proposals: one thing wrong at a time ------------------------------------------------------

type Kind = 'string' | 'nullableString' | 'number' | 'array' | 'object' | 'record' | 'kind';

/** Every field of `validProposal()` with its type and, for strings, its length limit. */
const FIELDS: { path: string; kind: Kind; max?: number; isPath?: boolean }[] = [
  { path: 'kind', kind: 'kind' },
  { path: 'title', kind: 'string', max: limit.MAX_TITLE_LENGTH },
  { path: 'body', kind: 'string', max: limit.MAX_BODY_LENGTH },
  { path: 'evidence', kind: 'object' },
  { path: 'evidence.paths', kind: 'array' },
  { path: 'evidence.paths.0', kind: 'string', max: limit.MAX_PATH_LENGTH, isPath: true },
  { path: 'evidence.paths.2', kind: 'string', max: limit.MAX_PATH_LENGTH, isPath: true },
  { path: 'evidence.commands', kind: 'array' },
  { path: 'evidence.commands.0', kind: 'object' },
  { path: 'evidence.commands.0.command', kind: 'string', max: limit.MAX_COMMAND_LENGTH },
  { path: 'evidence.commands.0.ranAt', kind: 'number' },
  { path: 'evidence.commands.0.result', kind: 'string', max: limit.MAX_COMMAND_RESULT_LENGTH },
  { path: 'evidence.hashes', kind: 'record' },
  { path: 'evidence.hashes.package.json', kind: 'string', max: limit.MAX_HASH_LENGTH },
  { path: 'evidence.commit', kind: 'nullableString', max: limit.MAX_COMMIT_LENGTH },
  { path: 'provenance', kind: 'object' },
  { path: 'provenance.source', kind: 'string', max: limit.MAX_IDENTIFIER_LENGTH },
  { path: 'provenance.agentId', kind: 'string', max: limit.MAX_IDENTIFIER_LENGTH },
  { path: 'provenance.taskId', kind: 'string', max: limit.MAX_IDENTIFIER_LENGTH },
  { path: 'provenance.itemId', kind: 'nullableString', max: limit.MAX_IDENTIFIER_LENGTH },
  { path: 'provenance.observedAt', kind: 'number' },
  { path: 'provenance.confidence', kind: 'number' },
];

/** `withField` that treats `evidence.hashes.package.json` as one key. */
function setField(p: unknown, path: string, value: unknown): unknown {
  if (!path.startsWith('evidence.hashes.')) return withField(p, path, value);
  const copy = structuredClone(p) as MemoryProposal;
  const key = path.slice('evidence.hashes.'.length);
  if (value === REMOVE) delete copy.evidence.hashes[key];
  else (copy.evidence.hashes as Record<string, unknown>)[key] = value;
  return copy;
}

function getField(p: unknown, path: string): unknown {
  if (path.startsWith('evidence.hashes.')) return (p as MemoryProposal).evidence.hashes[path.slice('evidence.hashes.'.length)];
  return path.split('.').reduce<unknown>((at, k) => (at as Record<string, unknown>)[k], p);
}

/** Whether `v` is an acceptable value of `kind` (a wrong-type mutation must not be). */
function fits(kind: Kind, v: unknown): boolean {
  const plain = typeof v === 'object' && v !== null && !Array.isArray(v);
  switch (kind) {
    case 'string':
      return typeof v === 'string';
    case 'nullableString':
      return v === null || typeof v === 'string';
    case 'number':
      return Number.isFinite(v);
    case 'array':
      return Array.isArray(v);
    case 'object':
      return plain;
    case 'record':
      return plain && Object.values(v as object).every((x) => typeof x === 'string');
    case 'kind':
      return ['finding', 'convention', 'build_command', 'decision', 'constraint'].includes(v as string);
  }
}

const WRONG_VALUES: unknown[] = [null, undefined, 0, 42, -1, 'text', '', true, false, [], ['x'], {}, { a: 1 }, NaN, Infinity];
const CONTROL = ['\u0000', '\u0001', '\u0008', '\u000b', '\u000c', '\u001b', '\u001f', '\u007f', '\u0085', '\u009b'];
const BIDI = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];
const SURROGATES = ['\ud800', '\udbff', '\udc00', '\udfff'];
const BAD_PATHS = ['/etc/passwd', '/home/u/proj/a.ts', 'C:/proj/a.ts', 'c:a.ts', 'C:\\proj\\a.ts', '~/a.ts', '~', '../a.ts', 'a/../../b', 'a//b', 'a/./b', 'a/b/', 'a\\b', '', './', '.', '..', 'a\u0000b'];
const STRING_FIELDS = FIELDS.filter((f) => f.max !== undefined);
const CONTAINERS = ['', 'evidence', 'provenance', 'evidence.commands.0'];

const proposalTable: { name: string; input: unknown; secret?: string }[] = [
  ...WRONG_VALUES.map((v) => ({ name: `the proposal is ${JSON.stringify(v) ?? String(v)}`, input: v })),
  { name: 'the proposal is a record (extra keys)', input: validRecord() },
  ...FIELDS.map((f) => ({ name: `${f.path} missing`, input: setField(validProposal(), f.path, REMOVE) })).filter(
    (c) => !c.name.startsWith('evidence.paths.') && !c.name.startsWith('evidence.hashes.package'),
  ),
  ...FIELDS.flatMap((f) =>
    WRONG_VALUES.filter((v) => !fits(f.kind, v)).map((v) => ({
      name: `${f.path} = ${JSON.stringify(v) ?? String(v)}`,
      input: setField(validProposal(), f.path, v),
    })),
  ),
  ...STRING_FIELDS.map((f) => ({ name: `${f.path} one over its limit`, input: setField(validProposal(), f.path, 'a'.repeat(f.max! + 1)) })),
  ...Object.entries(SECRETS).flatMap(([kind, secret]) =>
    ['title', 'body', 'evidence.commands.0.command', 'evidence.commands.0.result', 'provenance.taskId'].map((field) => ({
      name: `${kind} secret in ${field}`,
      input: setField(validProposal(), field, field === 'title' ? secret.slice(0, 200) : `see ${secret} here`),
      secret: field === 'title' ? secret.slice(0, 200) : secret,
    })),
  ),
  ...[...CONTROL, ...BIDI, ...SURROGATES].flatMap((ch) =>
    ['title', 'body', 'evidence.commands.0.result'].map((field) => ({ name: `U+${ch.charCodeAt(0).toString(16)} in ${field}`, input: setField(validProposal(), field, `a${ch}b`) })),
  ),
  ...BAD_PATHS.flatMap((p) => [
    { name: `evidence path ${JSON.stringify(p)}`, input: setField(validProposal(), 'evidence.paths.1', p) },
    { name: `evidence hash key ${JSON.stringify(p)}`, input: withField(validProposal(), 'evidence.hashes', { [p]: 'abc' }) },
  ]),
  ...CONTAINERS.map((c) => ({ name: `unknown key at ${c || 'the root'}`, input: setField(validProposal(), c ? `${c}.extra` : 'extra', 1) })),
  { name: 'unknown key that looks like a secret', input: { ...validProposal(), [SECRETS.github!]: 1 }, secret: SECRETS.github },
  { name: 'kind "note"', input: setField(validProposal(), 'kind', 'note') },
  { name: 'kind "Finding"', input: setField(validProposal(), 'kind', 'Finding') },
  { name: 'confidence -0.01', input: setField(validProposal(), 'provenance.confidence', -0.01) },
  { name: 'confidence 1.01', input: setField(validProposal(), 'provenance.confidence', 1.01) },
  { name: 'observedAt 0', input: setField(validProposal(), 'provenance.observedAt', 0) },
  { name: 'observedAt -1', input: setField(validProposal(), 'provenance.observedAt', -1) },
  { name: 'ranAt 0', input: setField(validProposal(), 'evidence.commands.0.ranAt', 0) },
  { name: 'ranAt -Infinity', input: setField(validProposal(), 'evidence.commands.0.ranAt', -Infinity) },
  { name: `${limit.MAX_PATHS + 1} paths`, input: setField(validProposal(), 'evidence.paths', Array.from({ length: limit.MAX_PATHS + 1 }, (_, i) => `src/f${i}.ts`)) },
  { name: `${limit.MAX_COMMANDS + 1} commands`, input: setField(validProposal(), 'evidence.commands', Array.from({ length: limit.MAX_COMMANDS + 1 }, () => ({ command: 'npm test', ranAt: T0, result: 'ok' }))) },
  { name: `${limit.MAX_HASH_ENTRIES + 1} hashes`, input: setField(validProposal(), 'evidence.hashes', Object.fromEntries(Array.from({ length: limit.MAX_HASH_ENTRIES + 1 }, (_, i) => [`src/f${i}.ts`, 'abc']))) },
  { name: 'one file hashed twice (./a and a)', input: setField(validProposal(), 'evidence.hashes', { 'src/a.ts': 'x', './src/a.ts': 'y' }) },
  { name: 'a "__proto__" hash key', input: setField(validProposal(), 'evidence.hashes', JSON.parse('{"__proto__":"abc"}')) },
  {
    name: 'every field within its limit but the whole over the record size',
    input: setField(setField(validProposal(), 'body', 'b'.repeat(limit.MAX_BODY_LENGTH)), 'evidence.paths', Array.from({ length: limit.MAX_PATHS }, (_, i) => `${'d'.repeat(290)}/f${i}.ts`)),
  },
];

describe('[memory-intake] malformed proposals through MemoryStore.propose (table)', () => {
  it(`refuses each of ${proposalTable.length} proposals with a reason and writes nothing`, () => {
    for (const c of proposalTable) {
      try {
        expectProposalRefused(c.input, c.secret);
      } catch (err) {
        throw new Error(`case "${c.name}": ${(err as Error).message}`);
      }
    }
  });
});

// ---- proposals: fast-check --------------------------------------------------------------------

const safeWord = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz '), maxLength: 20 });

/** A valid proposal with one thing wrong, and the secret it carries if any. */
const badProposal: fc.Arbitrary<{ input: unknown; secret?: string }> = fc.oneof(
  // an unsafe piece inserted somewhere into one string field
  fc
    .tuple(fc.constantFrom(...STRING_FIELDS), fc.oneof(fc.constantFrom(...Object.values(SECRETS)), fc.constantFrom(...CONTROL, ...BIDI, ...SURROGATES)), fc.nat(), safeWord)
    .map(([f, piece, at, pad]) => {
      const current = String(getField(validProposal(), f.path) ?? '');
      const i = at % (current.length + 1);
      // Spaces around the piece: a token glued to letters is not a token the detector claims to see.
      const value = `${current.slice(0, i)}${pad} ${piece} ${pad}${current.slice(i)}`;
      return { input: setField(validProposal(), f.path, value), secret: piece.length > 4 ? piece : undefined };
    }),
  // a string over its limit
  fc.tuple(fc.constantFrom(...STRING_FIELDS), fc.integer({ min: 1, max: 300 }), safeWord).map(([f, over, w]) => ({
    input: setField(validProposal(), f.path, (w + 'x'.repeat(f.max! + over)).slice(0, f.max! + over)),
  })),
  // a value of the wrong type
  fc
    .tuple(fc.constantFrom(...FIELDS), fc.oneof(fc.anything(), fc.constantFrom(...WRONG_VALUES)))
    .filter(([f, v]) => !fits(f.kind, v) && typeof v !== 'number')
    .map(([f, v]) => ({ input: setField(validProposal(), f.path, v) })),
  // a required key removed
  fc.constantFrom(...FIELDS.filter((f) => !/\.\d|hashes\./.test(f.path))).map((f) => ({ input: setField(validProposal(), f.path, REMOVE) })),
  // an unknown key
  fc
    .tuple(fc.constantFrom(...CONTAINERS), fc.string({ minLength: 1, maxLength: 12 }), fc.jsonValue())
    .filter(([c, k]) => k !== '__proto__' && !Object.keys((c ? getField(validProposal(), c) : validProposal()) as object).includes(k))
    .map(([c, k, v]) => {
      const copy = structuredClone(validProposal()) as unknown as Record<string, unknown>;
      const at = (c ? getField(copy, c) : copy) as Record<string, unknown>;
      at[k] = v;
      return { input: copy };
    }),
  // a path that is not workspace-relative
  fc
    .tuple(fc.constantFrom(...BAD_PATHS), fc.constantFrom('', 'src/x.ts', 'a'), fc.boolean(), fc.boolean())
    .map(([bad, tail, asKey, append]) => {
      const p = append && bad !== '' && !bad.endsWith('/') ? `${bad}/${tail}` : bad;
      return { input: asKey ? withField(validProposal(), 'evidence.hashes', { [p]: 'abc' }) : setField(validProposal(), 'evidence.paths.0', p) };
    }),
  // numbers out of range
  fc.oneof(
    fc.double({ min: 1.000001, max: 1e9, noNaN: true }).map((c) => ({ input: setField(validProposal(), 'provenance.confidence', c) })),
    fc.double({ min: -1e9, max: -1e-9, noNaN: true }).map((c) => ({ input: setField(validProposal(), 'provenance.confidence', c) })),
    fc.tuple(fc.constantFrom('provenance.observedAt', 'evidence.commands.0.ranAt'), fc.oneof(fc.double({ max: 0, noNaN: true }), fc.constant(NaN))).map(([f, t]) => ({
      input: setField(validProposal(), f, t),
    })),
  ),
  // too many entries
  fc.tuple(fc.constantFrom('paths', 'commands', 'hashes'), fc.integer({ min: 1, max: 30 })).map(([what, over]) => {
    const n = (what === 'commands' ? limit.MAX_COMMANDS : limit.MAX_PATHS) + over;
    const list = Array.from({ length: n }, (_, i) => `src/f${i}.ts`);
    const value =
      what === 'paths' ? list : what === 'commands' ? list.map((c) => ({ command: c, ranAt: T0, result: 'ok' })) : Object.fromEntries(list.map((p) => [p, 'abc']));
    return { input: setField(validProposal(), `evidence.${what}`, value) };
  }),
  // not an object at all
  fc.anything().filter((v) => typeof v !== 'object' || v === null || Array.isArray(v)).map((v) => ({ input: v })),
);

describe('[memory-intake] malformed proposals through MemoryStore.propose (fast-check)', () => {
  it('refuses 450 random malformed proposals with a reason that never repeats the secret, and writes nothing', () => {
    fc.assert(
      fc.property(badProposal, ({ input, secret }) => expectProposalRefused(input, secret)),
      { seed: SEED, numRuns: 450 },
    );
  });
});

// ---- raw rows: the guard -----------------------------------------------------------------------

let fresh = 0;
/** A valid revision-1 record with an id no row has. */
const freshRecord = (): MemoryRecord => ({ ...validRecord(), id: `mem_fuzz${String(++fresh).padStart(10, '0')}`, partition: PARTITION });
/** The fast-check inserts use one id: a refused insert leaves it free, an accepted one fails the run. */
const FUZZ_RECORD: MemoryRecord = { ...validRecord(), id: 'mem_fuzzinsert0001', partition: PARTITION };
const patched = (r: MemoryRecord, field: string, v: unknown): Record<string, unknown> => withField(r, field, v) as Record<string, unknown>;
const ENVELOPE = ['id', 'partition', 'state', 'revision'] as const;
/** A value of each envelope field that differs from every record these tests build. */
const OTHER_VALUE = { id: 'mem_someoneelse01', partition: 'ws_ffffffffffffffff', state: 'deleted', revision: 99 };

const notV2 = fc.oneof(fc.jsonValue(), fc.constant(REMOVE)).filter((v) => v !== 2);
const badPartition = fc
  .oneof(
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.constantFrom('/home/u/proj', 'C:\\x', 'C:\\Users\\u\\proj', '~/proj', 'ws_', 'WS_0123456789abcdef', 'ws-0123456789abcdef'),
    fc.tuple(fc.constantFrom('ws_', 'ws', 'ws__', 'xs_', ' ws_'), fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEFg'), maxLength: 24 })).map(([p, h]) => p + h),
    fc.tuple(fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 16, maxLength: 16 }), fc.string({ unit: 'binary', minLength: 1, maxLength: 20 })).map(([h, tail]) => `ws_${h}${tail}`),
  )
  .filter((p) => !PARTITION_PATTERN.test(p));
const badState = fc
  .oneof(fc.string({ maxLength: 20 }), fc.constantFrom('active', 'Verified', 'CANDIDATE', ' verified', 'deleted ', 'archived'))
  .filter((s) => !(memoryStates as readonly string[]).includes(s));
const badRevision = fc.oneof(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.constantFrom(0, -1, 2, 3, 2 ** 40)).filter((r) => r !== 1);
/** A JSON value the payload carries instead of the row's own (never equal to it; `true` for 1 included). */
const otherThan = (field: (typeof ENVELOPE)[number], own: unknown) =>
  fc.jsonValue().map((v) => (v === own || (typeof v === 'number' && v === Number(own)) ? OTHER_VALUE[field] : v));

interface BadRow {
  why: string;
  row: MemoryRow;
}

/** A row an insert must refuse, built around a valid record. */
const badInsert: fc.Arbitrary<BadRow> = fc.oneof(
  fc.jsonValue().map((v) => ({ why: 'random JSON payload', row: rowOf(FUZZ_RECORD, JSON.stringify(v)) })),
  fc.string({ maxLength: 60 }).map((s) => ({ why: 'random text payload', row: rowOf(FUZZ_RECORD, s) })),
  notV2.map((v) => ({ why: 'schemaVersion not 2', row: rowOf(patched(FUZZ_RECORD, 'schemaVersion', v)) })),
  badPartition.map((p) => ({ why: 'bad partition', row: rowOf(patched(FUZZ_RECORD, 'partition', p)) })),
  badState.map((s) => ({ why: 'bad state', row: rowOf(patched(FUZZ_RECORD, 'state', s)) })),
  badRevision.map((n) => ({ why: 'insert not at revision 1', row: rowOf(patched(FUZZ_RECORD, 'revision', n)) })),
  fc
    .constantFrom(...ENVELOPE)
    .chain((field) => otherThan(field, FUZZ_RECORD[field]).map((v) => ({ field, v })))
    .map(({ field, v }) => ({ why: `payload ${field} differs from the row`, row: { ...rowOf(FUZZ_RECORD), payload: JSON.stringify({ ...FUZZ_RECORD, [field]: v }) } })),
  // columns of types the STRICT table cannot coerce, or NULL
  fc
    .constantFrom<[keyof MemoryRow, unknown]>(
      ['revision', 'one'],
      ['revision', 1.5],
      ['revision', Buffer.from('1')],
      ['updated_at', 'soon'],
      ['updated_at', 1.25],
      ['payload', Buffer.from(JSON.stringify(FUZZ_RECORD))],
      ['id', null],
      ['partition', null],
      ['payload', null],
    )
    .map(([col, v]) => ({ why: `column ${col} of a wrong type`, row: { ...rowOf(FUZZ_RECORD), [col]: v } })),
);

/** An update of an existing row that the guard must refuse. */
const badUpdate: fc.Arbitrary<{ why: string; target: number; make: (id: string, rev: number) => MemoryRow; detail: unknown }> = fc.oneof(
  fc.tuple(fc.nat({ max: 2 }), fc.integer({ min: -5, max: 5 }).filter((d) => d !== 1)).map(([target, delta]) => ({
    why: `revision moves by ${delta}`,
    target,
    detail: delta,
    make: (id: string, rev: number) => rowOf({ ...validRecord(), id, partition: PARTITION, revision: rev + delta, state: 'verified' as const, verified: true }),
  })),
  fc
    .tuple(
      fc.nat({ max: 2 }),
      fc.oneof(
        notV2.map((v) => ({ why: 'schemaVersion not 2', detail: v, make: (r: MemoryRecord) => rowOf(patched(r, 'schemaVersion', v)) })),
        badPartition.map((p) => ({ why: 'bad partition', detail: p, make: (r: MemoryRecord) => rowOf(patched(r, 'partition', p)) })),
        badState.map((s) => ({ why: 'bad state', detail: s, make: (r: MemoryRecord) => rowOf(patched(r, 'state', s)) })),
        fc.string({ maxLength: 60 }).map((s) => ({ why: 'random text payload', detail: s, make: (r: MemoryRecord) => rowOf(r, s) })),
        fc.jsonValue().map((v) => ({ why: 'random JSON payload', detail: v, make: (r: MemoryRecord) => rowOf(r, JSON.stringify(v)) })),
        fc.constantFrom(...ENVELOPE).map((field) => ({
          why: `payload ${field} differs from the row`,
          detail: field,
          make: (r: MemoryRecord) => ({ ...rowOf(r), payload: JSON.stringify({ ...r, [field]: OTHER_VALUE[field] }) }),
        })),
      ),
    )
    .map(([target, m]) => ({
      why: `${m.why} (at the right revision)`,
      target,
      detail: m.detail,
      make: (id: string, rev: number) => m.make({ ...validRecord(), id, partition: PARTITION, revision: rev + 1, state: 'retired' }),
    })),
);

const rawTable: { name: string; write: () => unknown }[] = [
  ...['', 'x', '{', '[]', '{}', 'null', '2', '"schemaVersion":2', '{"schemaVersion":2}'].map((p) => ({ name: `insert payload ${p || '(empty)'}`, write: insertRow(rowOf(freshRecord(), p)) })),
  ...[1, '2', 3, 0, -2, null, true, [2], { v: 2 }].map((v) => ({ name: `insert schemaVersion ${JSON.stringify(v)}`, write: insertRow(rowOf(patched(freshRecord(), 'schemaVersion', v))) })),
  ...['/home/u/proj', 'C:\\x', `ws_${'a'.repeat(15)}`, `ws_${'a'.repeat(17)}`, 'ws_0123456789ABCDEF', 'ws_0123456789abcdeg', '', ' ws_0123456789abcdef'].flatMap((p) => [
    { name: `insert partition ${JSON.stringify(p)}`, write: insertRow(rowOf(patched(freshRecord(), 'partition', p))) },
    { name: `update partition ${JSON.stringify(p)}`, write: () => updateRow(rowOf(patched({ ...validRecord(), id: targets[0]![0], partition: PARTITION, revision: targets[0]![1] + 1 }, 'partition', p)), targets[0]![0])() },
  ]),
  ...['active', '', 'Candidate', 'verified '].flatMap((s) => [
    { name: `insert state ${JSON.stringify(s)}`, write: insertRow(rowOf(patched(freshRecord(), 'state', s))) },
    { name: `update state ${JSON.stringify(s)}`, write: () => updateRow(rowOf(patched({ ...validRecord(), id: targets[1]![0], partition: PARTITION, revision: targets[1]![1] + 1 }, 'state', s)), targets[1]![0])() },
  ]),
  ...[0, 2, 5, -1].map((n) => ({ name: `insert at revision ${n}`, write: insertRow(rowOf(patched(freshRecord(), 'revision', n))) })),
  ...[0, 2, -1, 3].map((d) => ({
    name: `update at revision +${d}`,
    write: () => updateRow(rowOf({ ...validRecord(), id: targets[2]![0], partition: PARTITION, revision: targets[2]![1] + d, state: 'retired' }), targets[2]![0])(),
  })),
];

describe('[memory-guard] malformed rows through raw SQL (table)', () => {
  it(`refuses each of ${rawTable.length} rows with a reason and writes nothing`, () => {
    for (const c of rawTable) {
      try {
        expectRawRefused(c.write);
      } catch (err) {
        throw new Error(`case "${c.name}": ${(err as Error).message}`);
      }
    }
  });
});

describe('[memory-guard] malformed rows through raw SQL (fast-check)', () => {
  it('refuses 350 random malformed INSERTs with a reason, and writes nothing', () => {
    fc.assert(
      fc.property(badInsert, ({ row }) => {
        expectRawRefused(insertRow(row));
      }),
      { seed: SEED, numRuns: 350 },
    );
  });

  it('refuses 300 random malformed UPDATEs of existing rows with a reason, and writes nothing', () => {
    fc.assert(
      fc.property(badUpdate, ({ target, make }) => {
        const [id, rev] = targets[target]!;
        expectRawRefused(updateRow(make(id, rev), id));
      }),
      { seed: SEED, numRuns: 300 },
    );
  });
});
