import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MemoryRecord } from '../../../../../engine/memory/MemoryRecord';
import { RECALL_LIMIT, RECALL_MAX_BYTES, RECALL_MAX_TOKENS } from '../../../../../engine/memory/recall/capRecall';
import { checkFreshness } from '../../../../../engine/memory/recall/checkFreshness';
import { recallScoped, type RecallQuery } from '../../../../../engine/memory/recall/recallScoped';
import { renderRecalled } from '../../../../../engine/memory/recall/renderRecalled';
import { utf8Length } from '../../../../../engine/text/utf8';
import { estimateTokens } from '../../../../../engine/tokens/estimateTokens';
import { DAY, hashIn, memoryRecord, NOW, type RecordOver, viewOf } from '../../../../support/memoryFixtures';

const query = (over: Partial<RecallQuery> = {}): RecallQuery => ({ task: 'Implement refresh token rotation', files: [], view: viewOf(), now: NOW, ...over });
const ids = (xs: readonly { record: MemoryRecord }[]) => xs.map((x) => x.record.id);
const reasonOf = (r: ReturnType<typeof recallScoped>, id: string) => r.skipped.filter((s) => s.record.id === id).map((s) => s.reason);
/** A small verified entry about `path`, current in the default view. */
const small = (over: RecordOver = {}) => memoryRecord({ body: 'short', ...over });

describe('recallScoped', () => {
  it('[recall-scoped] recalls verified entries only; every other state is skipped as not verified', () => {
    const ok = small();
    const others = [
      small({ state: 'candidate', verified: false }),
      small({ state: 'stale', verified: true }),
      small({ state: 'retired', verified: true }),
      small({ state: 'deleted', verified: true }),
      // A row that says verified without the flag (or the reverse) is not trusted either.
      small({ state: 'verified', verified: false }),
      small({ state: 'candidate', verified: true }),
    ];
    const r = recallScoped([...others, ok], query());
    expect(ids(r.recalled)).toEqual([ok.id]);
    for (const o of others) expect(reasonOf(r, o.id)).toEqual(['not verified']);
  });

  it('[recall-fresh] each recalled entry is current in the recipient view; stale, mismatch and unknown ones are skipped with their reason and never rendered', () => {
    const current = small({ title: 'Current entry' });
    const stale = small({ title: 'Stale entry', evidence: { commands: [{ command: 'npm test', ranAt: NOW - 40 * DAY, result: 'ok' }] } });
    const mismatch = small({ title: 'Mismatch entry', evidence: { paths: ['src/auth/store.ts'], hashes: { 'src/auth/store.ts': 'old-hash' } } });
    const unknown = small({ title: 'Unknown entry', evidence: { paths: ['src/gone.ts'], hashes: {} } });
    const otherBranch = small({ title: 'Other branch entry', evidence: { commit: 'feature-x' } });
    const view = viewOf({ descends: (c) => c !== 'feature-x' });
    const r = recallScoped([stale, mismatch, unknown, otherBranch, current], query({ view }));
    expect(ids(r.recalled)).toEqual([current.id]);
    expect(reasonOf(r, stale.id)).toEqual(['stale']);
    expect(reasonOf(r, mismatch.id)).toEqual(['mismatch']);
    expect(reasonOf(r, unknown.id)).toEqual(['unknown']);
    expect(reasonOf(r, otherBranch.id)).toEqual(['mismatch']);
    const text = r.recalled.map((x) => x.text).join('');
    for (const t of ['Stale entry', 'Mismatch entry', 'Unknown entry', 'Other branch entry']) expect(text).not.toContain(t);
  });

  it('[recall-fresh] the same entries give each recipient what is current in its own view', () => {
    const entry = small();
    expect(ids(recallScoped([entry], query()).recalled)).toEqual([entry.id]);
    expect(recallScoped([entry], query({ view: viewOf({ hashes: { 'src/auth/refresh.ts': 'edited' } }) })).recalled).toEqual([]);
  });

  it('[recall-render] each recalled entry carries its rendered text', () => {
    const entry = small();
    const [got] = recallScoped([entry], query()).recalled;
    expect(got?.record).toBe(entry);
    expect(got?.text).toBe(renderRecalled(entry));
  });

  it.each([
    ['observed at 1e20', { provenance: { observedAt: 1e20 } }],
    ['observed at NaN', { provenance: { observedAt: Number.NaN } }],
    ['observed in the year 20000', { provenance: { observedAt: Date.UTC(20000, 0, 1) } }],
    ['a command run at -1e20', { evidence: { commands: [{ command: 'npm test', ranAt: -1e20, result: 'ok' }] } }],
  ] as [string, RecordOver][])('[recall-scoped] an entry %s is skipped as "date out of range" and the others are still recalled (issue 20, item 6)', (_what, over) => {
    const ok = small({ title: 'Fine entry' });
    const bad = small({ title: 'Bad date entry', ...over });
    const r = recallScoped([bad, ok], query());
    expect(ids(r.recalled)).toEqual([ok.id]);
    expect(reasonOf(r, bad.id)).toEqual(['date out of range']);
  });

  it('[recall-scoped] at most 4 entries; the rest are over the limit', () => {
    const entries = Array.from({ length: 7 }, () => small());
    const r = recallScoped(entries, query());
    expect(r.recalled).toHaveLength(RECALL_LIMIT);
    expect(r.skipped.map((s) => s.reason)).toEqual(['over the limit', 'over the limit', 'over the limit']);
  });

  it('[recall-scoped] ranks by relevance to the task and files, the most relevant first', () => {
    // Task terms: implement, refresh, token, rotation, src, auth (from the task and the file).
    const files = ['src/auth/refresh.ts', 'lib/mailer/send.ts', 'lib/store.ts', 'docs/style.md'];
    const view = viewOf({ paths: files });
    const at = (path: string) => ({ paths: [path], hashes: { [path]: hashIn(path) } });
    const none = small({ title: 'Mailer uses SMTP', body: 'Messages are queued.', evidence: at('lib/mailer/send.ts') });
    const word = small({ title: 'The token store is SQLite', body: 'One table.', evidence: at('lib/store.ts') });
    const words = small({ title: 'Refresh token rotation', body: 'Rotation revokes the family.', evidence: at('docs/style.md') });
    const wordsAndFile = small({ title: 'Refresh token rotation', body: 'Rotation revokes the family.', evidence: at('src/auth/refresh.ts') });
    const r = recallScoped([none, word, words, wordsAndFile], query({ files: ['src/auth/refresh.ts'], view }));
    expect(ids(r.recalled)).toEqual([wordsAndFile.id, words.id, word.id, none.id]);
  });

  it('[recall-scoped] the 4 most relevant win over more recent but unrelated entries', () => {
    const relevant = Array.from({ length: 4 }, (_, i) => small({ title: `Refresh token rotation ${i}`, updatedAt: NOW - 10 * DAY }));
    const recent = Array.from({ length: 3 }, (_, i) => small({ title: `Mailer queue ${i}`, updatedAt: NOW - DAY }));
    const r = recallScoped([...recent, ...relevant], query());
    expect(new Set(ids(r.recalled))).toEqual(new Set(relevant.map((x) => x.id)));
    for (const x of recent) expect(reasonOf(r, x.id)).toEqual(['over the limit']);
  });

  it('[recall-scoped] equal relevance: newer first, then by id', () => {
    const older = small({ title: 'Same words', updatedAt: NOW - 5 * DAY });
    const newer = small({ title: 'Same words', updatedAt: NOW - DAY });
    const tieA = small({ id: 'mem_aaaaaaaa', title: 'Same words', updatedAt: NOW - 3 * DAY });
    const tieB = small({ id: 'mem_bbbbbbbb', title: 'Same words', updatedAt: NOW - 3 * DAY });
    const r = recallScoped([older, tieB, newer, tieA], query({ task: 'unrelated query' }));
    expect(ids(r.recalled)).toEqual([newer.id, tieA.id, tieB.id, older.id]);
  });

  it('[recall-cap] an entry that does not fit the block whole is skipped; a later smaller one still enters', () => {
    const big = (title: string) => small({ title, body: 'rotation '.repeat(70) }); // ~700 bytes rendered
    const a = big('Refresh token rotation A');
    const b = big('Refresh token rotation B');
    const c = small({ title: 'Refresh token C', body: 'short' });
    const r = recallScoped([a, b, c], query());
    expect(ids(r.recalled)).toEqual([a.id, c.id]);
    expect(reasonOf(r, b.id)).toEqual(['over the recall cap']);
  });

  it('[recall-scoped] property: at most 4 entries within 300 estimated tokens and 1200 bytes, each verified and current; every record is recalled or skipped exactly once', () => {
    const PATHS = ['src/auth/refresh.ts', 'src/auth/store.ts', 'src/gone.ts', 'package.json', 'docs/x.md'];
    const WORDS = ['refresh', 'token', 'rotation', 'family', 'mailer', 'invoice', 'store', 'the', 'é', '世界', '😀'];
    const text = (max: number) => fc.array(fc.constantFrom(...WORDS), { maxLength: max }).map((w) => w.join(' '));
    const spec = fc.record({
      state: fc.constantFrom('candidate', 'verified', 'verified', 'verified', 'stale', 'retired', 'deleted'),
      verified: fc.boolean(),
      title: text(8),
      body: text(200),
      paths: fc.uniqueArray(fc.constantFrom(...PATHS), { maxLength: 3 }),
      hashEdited: fc.boolean(),
      commandAgeDays: fc.option(fc.integer({ min: 0, max: 60 })),
      commit: fc.constantFrom(null, 'c-main', 'c-branch', 'c-unknown'),
      updatedDaysAgo: fc.integer({ min: 0, max: 20 }),
    });
    const viewSpec = fc.record({
      paths: fc.uniqueArray(fc.constantFrom(...PATHS), { maxLength: 5 }),
      edited: fc.uniqueArray(fc.constantFrom(...PATHS), { maxLength: 2 }),
    });
    fc.assert(
      fc.property(fc.array(spec, { maxLength: 14 }), viewSpec, fc.constantFrom('refresh token rotation', 'mailer invoice', ''), (specs, vs, task) => {
        const records = specs.map((s, i) =>
          memoryRecord({
            id: `mem_prop${String(i).padStart(4, '0')}`,
            state: s.state as MemoryRecord['state'],
            verified: s.verified,
            title: s.title,
            body: s.body,
            updatedAt: NOW - s.updatedDaysAgo * DAY,
            evidence: {
              paths: s.paths,
              hashes: Object.fromEntries(s.paths.map((p) => [p, s.hashEdited ? 'recorded-before-edit' : hashIn(p)])),
              commands: s.commandAgeDays === null ? [] : [{ command: 'npm test', ranAt: NOW - s.commandAgeDays * DAY, result: 'ok' }],
              commit: s.commit,
            },
          }),
        );
        const view = viewOf({
          paths: vs.paths,
          hashes: Object.fromEntries(vs.edited.map((p) => [p, 'edited-in-view'])),
          descends: (c) => (c === 'c-main' ? true : c === 'c-branch' ? false : undefined),
        });
        const r = recallScoped(records, { task, files: [], view, now: NOW });

        expect(r.recalled.length).toBeLessThanOrEqual(RECALL_LIMIT);
        expect(r.recalled.reduce((n, x) => n + estimateTokens(x.text), 0)).toBeLessThanOrEqual(RECALL_MAX_TOKENS);
        expect(r.recalled.reduce((n, x) => n + utf8Length(x.text), 0)).toBeLessThanOrEqual(RECALL_MAX_BYTES);
        for (const { record, text: t } of r.recalled) {
          expect(record.state).toBe('verified');
          expect(record.verified).toBe(true);
          expect(checkFreshness(record, view, NOW)).toBe('current');
          expect(t).toBe(renderRecalled(record));
        }
        expect([...ids(r.recalled), ...ids(r.skipped)].sort()).toEqual(records.map((x) => x.id).sort());
        for (const s of r.skipped) {
          if (s.reason === 'not verified') expect(s.record.state === 'verified' && s.record.verified).toBe(false);
          else if (s.reason === 'stale' || s.reason === 'mismatch' || s.reason === 'unknown') expect(checkFreshness(s.record, view, NOW)).toBe(s.reason);
        }
        // The limit applies before the cap: as many entries as can be are considered for the block.
        const eligible = records.filter((x) => x.state === 'verified' && x.verified && checkFreshness(x, view, NOW) === 'current').length;
        const considered = r.recalled.length + r.skipped.filter((s) => s.reason === 'over the recall cap').length;
        expect(considered).toBe(Math.min(RECALL_LIMIT, eligible));
      }),
      { seed: 20261129, numRuns: 300 },
    );
  });
});
