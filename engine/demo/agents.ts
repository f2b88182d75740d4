import type { SpawnRequest, StatedFinding } from '../runtime/Driver';
import type { Rng } from './prng';
import type { CallDraft, CallResult, TestReport, World } from './world';
import { DEMO_EDITS, type EditId } from './demoEdits';

/**
 * The agents of the generated demo run, as behaviours: each is a generator that yields one turn
 * at a time (text, tool calls, spawns, findings) and receives what its tools answered, so its next
 * words can react to the actual results. The generator of `generateDemoRun` schedules them exactly
 * as the runtime will, against the shared {@link World}; the recorded turns are the script.
 */

export interface Draft {
  text: string;
  calls?: CallDraft[];
  spawn?: SpawnRequest[];
  findings?: StatedFinding[];
  /** The provider refuses this turn's prompt once (a context-limit refresh); the retry then runs it. */
  contextLimit?: string;
  done?: boolean;
  /** The text already speaks to the previous results (no generic reaction is prefixed). */
  reacted?: boolean;
}

export interface TurnOutcome {
  turn: number;
  results: CallResult[];
}

interface AgentContext {
  id: string;
  rng: Rng;
  world: World;
}

export type Behavior = (ctx: AgentContext) => Generator<Draft, void, TurnOutcome>;

export const MODELS = { fast: 'claude-haiku-4-5', main: 'claude-sonnet-4-5', review: 'claude-opus-4-1' } as const;

export const TASKS = {
  primary: 'Add refresh-token rotation to the payments API without breaking existing sessions',
  'probe-callers': 'Find every caller of issueToken() and refresh(), and every place a token value or hash could reach a log',
  'worker-store': 'Migrate the token store: family_id and rotated_at on refresh_tokens, markRotated() and revokeFamily() in src/auth/store.ts',
  'worker-rotation': 'Rotate refresh tokens in src/auth/refresh.ts: a new token on every refresh, the old one marked rotated, the family carried over; send the new token from POST /auth/refresh',
  'worker-family': 'Token families in src/auth/family.ts: revoke the whole family when a rotated token is reused (ADR-0007 §3)',
  'worker-session': 'Sessions carry their token family (src/auth/session.ts); src/auth/middleware.ts must stop logging token values',
  'test-1': 'Extend tests/integration/refresh.spec.ts: concurrent refresh keeps one family, legacy sessions keep working; keep the suite green',
  'debug-1': "Find why 'concurrent refresh keeps one family' fails intermittently and fix it",
  'reviewer-1': 'Review the rotation change against ADR-0007: replay, races, legacy sessions and logging',
} as const;

const WORKERS = ['worker-store', 'worker-rotation', 'worker-family', 'worker-session'] as const;

const SPEC = 'tests/integration/refresh.spec.ts';
const ADR = 'docs/adr/0007-sessions.md';

// ---------------------------------------------------------------------------------------------
// Tool calls and what they said

const read = (path: string, start?: number, end?: number): CallDraft => ({ name: 'read_file', args: start === undefined ? { path } : { path, start_line: start, end_line: end ?? start + 20 } });
const grep = (pattern: string, path = 'src'): CallDraft => ({ name: 'grep', args: { pattern, path } });
const npmTest = (file?: string): CallDraft => ({ name: 'run_command', args: { command: file === undefined ? 'npm test' : `npm test -- ${file}` } });
const run = (command: string): CallDraft => ({ name: 'run_command', args: { command } });
const edit = (id: EditId): CallDraft => ({ name: 'edit_file', args: { path: DEMO_EDITS[id].path, summary: DEMO_EDITS[id].summary }, edit: id });

const base = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const unique = <T>(xs: readonly T[]): T[] => [...new Set(xs)];
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
/** Non-empty parts, one per line. */
const lines = (...parts: (string | undefined)[]) => parts.filter((p) => p !== undefined && p !== '').join('\n');
const listOf = (xs: readonly string[]) => (xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1) as string}`);

/** Who makes each edit: a failing test "waits on" the owners of the edits it still misses. */
const OWNER: Record<EditId, string> = {
  M1: 'worker-store',
  M2: 'worker-store',
  S1: 'worker-store',
  S2: 'worker-store',
  S3: 'worker-store',
  S4: 'worker-store',
  S5: 'worker-store',
  CAS: 'debug-1',
  R0: 'worker-rotation',
  R1: 'worker-rotation',
  R2: 'worker-rotation',
  Ro1: 'worker-rotation',
  F0: 'worker-family',
  F1: 'worker-family',
  Se1: 'worker-session',
  Se2: 'worker-session',
  Me1: 'worker-session',
  Mt1: 'worker-session',
  T1: 'test-1',
  T2: 'test-1',
};

function ownersOf(world: World, missing: readonly EditId[]): string[] {
  return unique(missing.map((e) => (e === 'CAS' && !world.agents.has('debug-1') ? 'a race in markRotated()' : OWNER[e])));
}

function testResults(o: TurnOutcome | undefined): CallResult[] {
  return (o?.results ?? []).filter((r) => r.tests !== undefined);
}

const targetOf = (r: CallResult) => {
  const m = /-- (\S+)$/.exec(String(r.call.args['command']));
  return m ? base(m[1] as string) : 'full suite';
};

/** One test run in a sentence, from `self`'s point of view: what fails, and whose part it waits on. */
function testSentence(world: World, self: string, r: CallResult): string {
  const t = r.tests;
  if (!t) return '';
  const label = targetOf(r);
  if (t.failed.length === 0) return `${label}: all ${t.passed.length} tests pass.`;
  const head = `${label}: ${t.failed.length} failing, ${t.passed.length} passing.`;
  const mine = t.failed.filter((f) => f.missing.length === 0 || ownersOf(world, f.missing).includes(self));
  const theirs = t.failed.filter((f) => !mine.includes(f));
  const parts = [head];
  const first = mine[0];
  if (first) parts.push(`Mine: «${first.name}» (${first.short})${mine.length > 1 ? ` and ${mine.length - 1} more` : ''}.`);
  if (theirs.length > 0) {
    const shown = theirs.slice(0, 2).map((f) => `«${f.name}» waits on ${listOf(ownersOf(world, f.missing))}`);
    parts.push(`Not mine: ${shown.join('; ')}${theirs.length > 2 ? ` (+${theirs.length - 2} more)` : ''}.`);
  }
  return parts.join(' ');
}

/** What the previous turn's results said, in a sentence or two (the start of the next turn). */
function react(world: World, self: string, last: TurnOutcome | undefined): string {
  if (!last) return '';
  const parts: string[] = [];
  for (const r of last.results) {
    const args = r.call.args;
    if (r.call.name === 'grep') {
      const hits = r.hits ?? [];
      const pattern = String(args['pattern']);
      if (r.isError) parts.push(`grep /${pattern}/ found no such path.`);
      else if (hits.length === 0) parts.push(`No hits for /${pattern}/.`);
      else parts.push(`/${pattern}/: ${plural(hits.length, 'hit')} in ${unique(hits.map((h) => base(h.split(':')[0] as string))).join(', ')}.`);
    } else if (r.call.name === 'read_file') {
      const path = String(args['path']);
      const names = unique([...r.content.matchAll(/export (?:async )?(?:function|class|interface|const) (\w+)/g)].map((m) => m[1] as string));
      const lines = /lines (\d+)-(\d+) of (\d+)/.exec(r.content);
      const span = lines ? (lines[1] === '1' && lines[2] === lines[3] ? `${lines[3]} lines` : `lines ${lines[1]}-${lines[2]}`) : '';
      parts.push(names.length > 0 ? `${base(path)} (${span}): ${names.slice(0, 4).join(', ')}.` : `Read ${base(path)} (${span}).`);
    } else if (r.call.name === 'edit_file') {
      parts.push(r.content.replace(/; the file now has \d+ lines\.$/, '.'));
    } else if (r.tests) {
      parts.push(testSentence(world, self, r));
    } else if (String(args['command']) === 'git diff --stat') {
      parts.push(`${plural(r.content.split('\n').filter((l) => l.includes(' | ')).length, 'file')} changed.`);
    } else if (String(args['command']).startsWith('git diff ')) {
      const body = r.content.split('\n');
      const plus = body.filter((l) => l.startsWith('+') && !l.startsWith('+++')).length;
      const minus = body.filter((l) => l.startsWith('-') && !l.startsWith('---')).length;
      parts.push(`${base(String(args['command']).slice('git diff '.length))} diff: +${plus} −${minus} in ${plural(body.filter((l) => l.startsWith('@@')).length, 'hunk')}.`);
    } else {
      parts.push(`\`${String(args['command'])}\` ${r.isError ? 'failed' : 'ran clean'}.`);
    }
  }
  return parts.slice(0, 2).join(' ');
}

function contextLimitMessage(rng: Rng): string {
  return `prompt is too long: ${rng.int(200_450, 214_900)} tokens > 200000 maximum`;
}

// ---------------------------------------------------------------------------------------------
// Planned agents: fixed beats in order, fillers scattered between them, one context-limit resume

type Beat = (last: TurnOutcome | undefined) => Draft;
/** A filler may not fit the moment (undefined: pick another). */
type Filler = (last: TurnOutcome | undefined) => Draft | undefined;

/** A beat that reads the results of the beat before it: nothing is scheduled between the two. */
interface Glued {
  glued: Beat;
}
const glued = (beat: Beat): Glued => ({ glued: beat });

interface Plan {
  beats: (Beat | Glued)[];
  fillers: Filler[];
  /** Turns in all, the final one included. */
  total: number;
  /** The agent's own test file: re-run when someone else's change landed since its last run. */
  ownTests?: string;
  /** Where the turn the provider refuses once goes (as a share of the turns), and what it says. */
  limit?: { at: number; resume: Beat };
  /** The last turn; its first line is the title of the agent's report, so it gets no reaction prefix. */
  final: Beat;
}

const NOTES = [
  'Nothing surprising so far; continuing with the plan.',
  'Cross-checking against the ADR before the next step.',
  'Keeping the change small: one concern per edit.',
  'Nothing new from the others that touches my files.',
  'Re-checking my notes against the pinned constraints: nothing logged that should not be.',
  'No open question on my side right now.',
];

/**
 * A planned agent: its beats in order, with fillers scattered between them (never between a glued
 * beat and the one before it) and, for a long-running agent, one turn the provider refuses once
 * for its length. A filler is, by preference, a re-read of a file someone else changed since this
 * agent last read it, or a re-run of its tests after someone else's change; otherwise the least
 * used of its own fillers (each at most twice), otherwise a short note.
 */
function* planned(ctx: AgentContext, plan: Plan): Generator<Draft, void, TurnOutcome> {
  const { rng, world, id } = ctx;
  const slots: (Beat | Glued | 'filler' | 'resume')[] = [...plan.beats];
  /** Insert at `at` or the first later place that does not split a glued beat from the one before. */
  const insert = (at: number, slot: 'filler' | 'resume') => {
    let i = Math.min(at, slots.length);
    while (i < slots.length && typeof slots[i] === 'object') i++;
    slots.splice(i, 0, slot);
  };
  const fillerCount = Math.max(0, plan.total - plan.beats.length - 1 - (plan.limit ? 1 : 0));
  for (let k = 0; k < fillerCount; k++) insert(rng.int(Math.min(2, slots.length), slots.length), 'filler');
  if (plan.limit) insert(Math.max(3, Math.round(slots.length * plan.limit.at)), 'resume');

  const seen = new Map<string, string>();
  const uses = plan.fillers.map(() => 0);
  const notes = rng.shuffle(NOTES);
  /** Edits applied when this agent last ran each command (a re-run with nothing changed is pointless). */
  const ranAt = new Map<string, number>();
  /** This agent edited since it last ran its own tests (its own next beat tests that). */
  let editedSinceRun = false;
  const observe = (o: TurnOutcome | undefined) => {
    for (const r of o?.results ?? []) {
      if (r.call.name === 'read_file' && !r.isError && r.call.args['start_line'] === undefined) seen.set(String(r.call.args['path']), r.content);
      if (r.call.name === 'edit_file') editedSinceRun = true;
      if (r.tests) {
        ranAt.set(String(r.call.args['command']), world.applied.size);
        if (plan.ownTests && String(r.call.args['command']).endsWith(plan.ownTests)) editedSinceRun = false;
      }
    }
  };
  const pointless = (d: Draft) => (d.calls ?? []).some((c) => c.name === 'run_command' && ranAt.get(String(c.args['command'])) === world.applied.size);
  const othersEdit = (path: string) => {
    const e = world.lastEdit.get(path);
    return e !== undefined && OWNER[e] !== id ? e : undefined;
  };
  const filler = (last: TurnOutcome | undefined): Draft => {
    const changed = [...seen.keys()].filter((p) => othersEdit(p) && world.read(p).content !== seen.get(p));
    if (changed.length > 0 && rng.chance(0.6)) {
      const path = rng.pick(changed);
      const e = othersEdit(path) as EditId;
      return { text: `${path} changed since I last read it (${OWNER[e]}: ${DEMO_EDITS[e].summary}). Re-reading it.`, calls: [read(path)] };
    }
    const newest = [...world.applied].at(-1);
    const own = plan.ownTests ? npmTest(plan.ownTests) : undefined;
    if (own && newest && !editedSinceRun && OWNER[newest] !== id && seen.has(DEMO_EDITS[newest].path) && !pointless({ text: '', calls: [own] }) && rng.chance(0.5)) {
      return { text: `${OWNER[newest]} changed ${DEMO_EDITS[newest].path} since my last run; re-running ${base(plan.ownTests as string)}.`, calls: [own] };
    }
    const order = rng.shuffle(plan.fillers.map((_, i) => i)).sort((a, b) => (uses[a] as number) - (uses[b] as number));
    for (const i of order) {
      if ((uses[i] as number) >= 2) break;
      const draft = (plan.fillers[i] as Filler)(last);
      if (!draft || pointless(draft)) continue;
      uses[i] = (uses[i] as number) + 1;
      return draft;
    }
    return { text: notes.pop() ?? 'Continuing.', calls: [] };
  };

  let last: TurnOutcome | undefined;
  for (const slot of slots) {
    let draft: Draft;
    if (slot === 'resume' && plan.limit) draft = { ...plan.limit.resume(last), contextLimit: contextLimitMessage(rng) };
    else if (slot === 'filler') draft = filler(last);
    else if (typeof slot === 'object') draft = slot.glued(last);
    else draft = (slot as Beat)(last);
    last = yield withReaction(world, id, draft, last);
    observe(last);
  }
  yield { ...plan.final(last), done: true };
}

function withReaction(world: World, id: string, draft: Draft, last: TurnOutcome | undefined): Draft {
  if (draft.reacted) return draft;
  return { ...draft, text: lines(react(world, id, last), draft.text) };
}

/** A filler that reads a file, with one of a few ways of saying why. */
const look = (rng: Rng, path: string, why: readonly string[], range?: () => [number, number]): Beat => () => {
  const r = range?.();
  return { text: rng.pick(why), calls: [r ? read(path, r[0], r[1]) : read(path)] };
};
const search = (rng: Rng, pattern: string, path: string, why: readonly string[]): Beat => () => ({ text: rng.pick(why), calls: [grep(pattern, path)] });
const think = (text: string): Beat => () => ({ text, calls: [] });
const rerun = (rng: Rng, file: string | undefined, why: readonly string[]): Beat => () => ({ text: rng.pick(why), calls: [npmTest(file)] });

/** The lines of a test case in a spec file (for a ranged read). */
function caseRange(world: World, file: string, name: string): [number, number] {
  const start = world.lineOf(file, `it('${name}'`);
  return start === 0 ? [1, 30] : [start, start + 7];
}

// ---------------------------------------------------------------------------------------------
// probe-callers (read-only)

const probeCallers: Behavior = function* (ctx) {
  const { rng, world } = ctx;
  const hitsOf = (o: TurnOutcome | undefined, k: number) => o?.results[k]?.hits ?? [];
  let callers: string[] = [];
  yield* planned(ctx, {
    total: rng.int(12, 15),
    beats: [
      () => ({ text: 'Surveying before anyone edits: first every call site of issueToken() and refresh().', calls: [grep('issueToken\\(', 'src'), grep('\\brefresh\\(', 'src')] }),
      glued((o) => {
        callers = hitsOf(o, 0).filter((h) => !h.includes('export async function'));
        return {
          reacted: true,
          text: `issueToken() is called in ${plural(callers.length, 'place')}: ${callers.map((h) => h.split(': ')[0]).join(', ')}. Reading the two callers outside refresh.ts.`,
          calls: [read('src/auth/session.ts'), read('src/admin/impersonate.ts')],
        };
      }),
      glued(() => ({
        text: "createSession() and impersonate() both call issueToken(deps, userId, sessionId): any new family parameter must be optional. Now the route that calls refresh().",
        calls: [read('src/routes/auth.ts')],
        findings: [
          {
            title: 'Callers of issueToken() and refresh()',
            content: `issueToken() is called from ${callers.map((h) => h.split(': ')[0]).join(' and ')}; refresh() only from POST /auth/refresh (src/routes/auth.ts:${world.lineOf('src/routes/auth.ts', 'await refresh(')}). A family id added to issueToken() must default to a new family so login and impersonation keep working unchanged.`,
            files: ['src/auth/refresh.ts', 'src/auth/session.ts', 'src/admin/impersonate.ts', 'src/routes/auth.ts'],
          },
        ],
      })),
      () => ({ text: 'Next: where could a token value or a token hash reach a log?', calls: [grep('logger\\.(info|warn|error)', 'src'), grep('console\\.', 'src')] }),
      glued(() => ({ text: 'requireSession() logs something on every rejected token; reading it.', calls: [read('src/auth/middleware.ts')] })),
      glued(() => {
        const line = world.lineOf('src/auth/middleware.ts', "logger.warn('rejected access token'");
        return {
          text: `Constraint violation: src/auth/middleware.ts:${line} passes { token } to logger.warn, so every rejected bearer token is written to the logs. That breaks "Never log token values or token hashes". Checking where token hashes flow.`,
          calls: [grep('hashToken', 'src')],
          findings: [
            {
              title: 'middleware.ts logs the raw access token',
              content: `src/auth/middleware.ts:${line}: logger.warn('rejected access token', { token, reason }) writes the presented bearer token to the logs on every rejection. Violates the pinned constraint "Never log token values or token hashes"; log whether a token was sent and the reason instead.`,
              files: ['src/auth/middleware.ts'],
            },
          ],
        };
      }),
      glued(() => ({ text: 'hashToken() results only go to the store (tokenHash) and the lookup; no log call takes them. Now the schema: what does rotation need that is not there?', calls: [read('db/schema.sql'), grep('family|rotated', 'src')] })),
      glued((o) => ({
        text: `${unique((o?.results[1]?.hits ?? []).map((h) => base(h.split(':')[0] as string))).join(', ') === 'family.ts' ? "Only family.ts's stub talks about families" : 'Hardly anything mentions families'}; no rotation state anywhere in src or the schema. Checking what the ADR says about rows written before the change.`,
        calls: [read(ADR)],
        findings: [
          {
            title: 'Schema gap: no family_id, no rotated_at',
            content: 'refresh_tokens has neither family_id nor rotated_at, and sessions have no family. Every row written before the migration (legacy sessions) will have a NULL family, so refresh() must adopt a family for them (ADR-0007 §5), and the new columns must be nullable (no downtime).',
            files: ['db/schema.sql', ADR],
          },
        ],
      })),
    ],
    fillers: [
      search(rng, "cookies\\.rt|cookie\\('rt'", 'src', ['Where does the refresh token travel? Checking the cookie handling.', 'How the rt cookie is set and read.']),
      look(rng, 'src/auth/tokens.ts', ['How tokens are made and hashed.', 'Reading tokens.ts for the token format.']),
      search(rng, 'revoked_at|revokedAt', '.', ['Everything that revokes tokens today.', 'Who writes revoked_at?']),
      search(rng, 'TODO\\(ADR-0007\\)', 'src', ['Open ADR-0007 TODOs in src.', 'Listing the TODOs the ADR left behind.']),
      look(rng, 'src/auth/store.ts', ['The store the workers will extend.', 'What the token store offers today.']),
      search(rng, 'invalid_grant', 'src', ['Every place that answers invalid_grant.', 'How refusals are signalled.']),
      look(rng, SPEC, ['What the integration suite covers today.', 'Existing refresh tests.']),
      search(rng, 'endSession|revoke\\(', 'src', ['Logout path: how tokens are revoked on endSession().', 'Other revocation paths.']),
      look(rng, 'src/auth/errors.ts', ['Error codes the auth layer uses.']),
    ],
    final: () => ({
      text: `Survey done. issueToken() has ${plural(callers.length, 'caller')} (${callers.map((h) => base(h.split(':')[0] as string)).join(', ')}); refresh() has one, POST /auth/refresh. One constraint violation: src/auth/middleware.ts logs the raw access token. The schema has neither family_id nor rotated_at, so legacy rows will have NULL families.`,
      calls: [],
    }),
  });
};

// ---------------------------------------------------------------------------------------------
// worker-store

const workerStore: Behavior = function* (ctx) {
  const { rng, world, id } = ctx;
  const store = 'src/auth/store.ts';
  const storeSpec = 'tests/unit/store.spec.ts';
  yield* planned(ctx, {
    total: rng.int(44, 52),
    ownTests: storeSpec,
    beats: [
      () => ({ text: 'Starting on the token store. Reading the store and the schema first.', calls: [read(store), read('db/schema.sql')] }),
      () => ({ text: 'Migration conventions, and every reference to refresh_tokens.', calls: [read('db/migrations/0041_sessions.sql'), grep('refresh_tokens', '.')] }),
      () => ({ text: 'Baseline of the store tests before touching anything.', calls: [npmTest(storeSpec)] }),
      () => ({ text: 'Decided: both columns nullable (ADR-0007: no downtime, no table rewrite); family_id TEXT like the other ids, rotated_at BIGINT like revoked_at. Writing migration 0042.', calls: [edit('M1')] }),
      () => ({ text: 'Dry run of the migration against the test database.', calls: [run('npm run db:migrate -- --dry-run')] }),
      () => ({ text: 'Record type and row mapping first, so everything downstream sees the new fields.', calls: [edit('S1'), edit('S5')] }),
      () => ({ text: 'insert() has to write the family too; then the store tests again.', calls: [edit('S3'), npmTest(storeSpec)] }),
      glued((o) => ({ reacted: true, text: `${react(world, id, o)}\nmarkRotated() and revokeFamily() are what remains. Re-reading the class before adding them.`, calls: [read(store)] })),
      () => ({
        text: 'markRotated(): read rotated_at, set it if it is still null, report whether this call did it. revokeFamily(): one UPDATE over the live tokens of the family, returning the count.',
        calls: [edit('S2'), edit('S4')],
      }),
      () => ({ text: 'All three store tests should pass now.', calls: [npmTest(storeSpec)] }),
      () => ({
        text: 'Publishing the store API so worker-rotation and worker-family can rely on it.',
        calls: [grep('markRotated|revokeFamily', 'src')],
        findings: [
          {
            title: 'Store API for rotation',
            content: 'RefreshTokenStore.markRotated(tokenHash, at) returns false when the token was already rotated; revokeFamily(familyId, at) revokes every live token of the family and returns the count. RefreshTokenRecord has familyId and rotatedAt (both nullable: legacy rows).',
            files: [store, 'db/migrations/0042_refresh_token_family.sql'],
          },
        ],
      }),
      () => ({ text: 'revokeFamily() filters on family_id over live tokens: a partial index keeps it cheap.', calls: [edit('M2'), run('npm run db:migrate -- --dry-run')] }),
      () => ({ text: 'Whole suite, to see where the other parts stand.', calls: [npmTest()] }),
      () => ({ text: 'Final run of the store tests.', calls: [npmTest(storeSpec)] }),
    ],
    fillers: [
      () => ({ text: world.has('S1') ? rng.pick(['Re-reading store.ts as it stands.', 'Checking the store class after the last change.']) : 'store.ts once more before the first change.', calls: [read(store)] }),
      search(rng, 'findByHash', 'src', ['Who reads records through findByHash()? They will see the new fields.', 'Callers of findByHash().']),
      look(rng, 'src/auth/refresh.ts', ['How refresh.ts uses the store.', 'Reading refresh.ts for the calls into the store.']),
      rerun(rng, storeSpec, ['Store tests again.', 'Re-running the store tests.']),
      search(rng, 'rotated_at|family_id', '.', ['Every mention of the new columns.', 'Where family_id and rotated_at appear now.']),
      search(rng, 'RefreshTokenRecord', 'src', ['Who builds RefreshTokenRecord values? They need the new fields.']),
      look(rng, storeSpec, ['What the store tests expect exactly.', 'Reading the store tests.']),
      look(rng, 'tests/support/fakes.ts', ['The fake store the unit tests use: it must know the new methods.']),
      think('Considered making revokeFamily() also end the session: no. ADR-0007 revokes tokens only; the session ends at logout through endSession().'),
      rerun(rng, SPEC, ['The integration suite, for the store side of it.']),
      search(rng, 'ALTER TABLE', 'db', ['The migration as written, next to 0041.']),
      look(rng, ADR, ['ADR-0007 §4 on the compare-and-set, against markRotated().'], () => [world.lineOf(ADR, '4. Concurrency'), world.lineOf(ADR, '4. Concurrency') + 4]),
      think('rotated_at stays BIGINT milliseconds like issued_at and revoked_at: one time representation in the table.'),
      look(rng, 'src/auth/session.ts', ['sessions.family_id is in my migration; how session.ts will write it (worker-session).']),
      search(rng, "revoke\\(", 'src', ['Single-token revoke(): still used after revokeFamily()?']),
    ],
    limit: {
      at: rng.int(55, 68) / 100,
      resume: () => ({
        reacted: true,
        text: `Resuming in a fresh context generation: the provider refused the last prompt as too long. Carried over: migration 0042 (family_id, rotated_at), the record fields, markRotated() and revokeFamily(); ${world.has('M2') ? 'the partial index is in; ' : ''}store tests were passing. Re-reading store.ts before going on.`,
        calls: [read(store)],
      }),
    },
    final: () => ({
      text: `Store done: migration 0042 adds nullable family_id and rotated_at (with a partial index on live tokens by family); RefreshTokenStore has markRotated() and revokeFamily(); tests/unit/store.spec.ts passes. ${world.has('CAS') ? 'markRotated() is now a single compare-and-set UPDATE (debug-1 fixed the race).' : 'Remaining risk: markRotated() is read-then-write, so two concurrent refreshes can both win.'}`,
      calls: [],
    }),
  });
};

// ---------------------------------------------------------------------------------------------
// worker-rotation

const workerRotation: Behavior = function* (ctx) {
  const { rng, world, id } = ctx;
  const refresh = 'src/auth/refresh.ts';
  yield* planned(ctx, {
    total: rng.int(44, 52),
    ownTests: SPEC,
    beats: [
      () => ({ text: "probe-callers' survey is in. Reading refresh.ts and the ADR before changing anything.", calls: [read(refresh), read(ADR)] }),
      () => ({ text: 'The route that answers POST /auth/refresh, and family.ts as it stands.', calls: [read('src/routes/auth.ts'), read('src/auth/family.ts')] }),
      () => ({ text: 'Baseline of the integration suite.', calls: [npmTest(SPEC)] }),
      glued((o) => ({
        reacted: true,
        text: `${react(world, id, o)}\nDecided: refresh() keeps its three validity checks, then assertNotReused(), then markRotated(), then issueToken() with the same family; a legacy token (familyId null) adopts a new family. issueToken() takes an optional familyId so createSession() and impersonate() keep working.`,
        calls: [edit('R0'), edit('R1')],
      })),
      () => ({ text: 'Now the rotation itself in refresh().', calls: [edit('R2')] }),
      () => ({ text: 'Integration suite with rotation in.', calls: [npmTest(SPEC)] }),
      glued((o) => ({
        reacted: true,
        text: `${react(world, id, o)}\nThe route still answers with the access token only, so the rotated refresh token never reaches the client. Setting it as the rt cookie.`,
        calls: [edit('Ro1')],
      })),
      () => ({ text: 'And the suite again.', calls: [npmTest(SPEC)] }),
      () => ({
        text: 'Recording what refresh() does now, for the others and the review.',
        calls: [grep('issueToken\\(', 'src')],
        findings: [
          {
            title: 'refresh() rotates',
            content: 'refresh() marks the presented token rotated and issues a new token of the same family; assertNotReused() runs before markRotated(); a refresh that loses the race to a concurrent one is refused with invalid_grant without revoking the family; a legacy token adopts a new family. POST /auth/refresh sets the new rt cookie.',
            files: [refresh, 'src/routes/auth.ts'],
          },
        ],
      }),
      () => ({ text: 'Callers still pass three arguments and get a new family by default. Checking impersonate() to be sure.', calls: [read('src/admin/impersonate.ts')] }),
      () => ({ text: 'Nothing may hand the presented token back any more.', calls: [grep('refreshToken: presented|refreshToken,', 'src')] }),
      () => ({ text: 'Last integration run for my part.', calls: [npmTest(SPEC)] }),
    ],
    fillers: [
      () => ({ text: world.has('R1') ? rng.pick(['Re-reading refresh.ts as it stands.', 'Looking at refresh() again after the last change.']) : 'refresh.ts once more, the validity checks in particular.', calls: [read(refresh)] }),
      look(rng, 'src/auth/tokens.ts', ['TTLs and the token format, to be sure issueToken() keeps them.']),
      search(rng, 'markRotated', 'src', ['Is markRotated() on the store yet (worker-store)?', 'Checking the store side of markRotated().']),
      search(rng, 'assertNotReused', 'src', ['Where assertNotReused() stands (worker-family).']),
      look(rng, 'src/routes/auth.ts', ['The refresh route once more.']),
      rerun(rng, SPEC, ['Integration suite again.', 'Re-running the integration suite.']),
      look(rng, 'tests/support/testApi.ts', ['How the test client keeps cookies: does it pick up the new rt?']),
      search(rng, 'COOKIE', 'src', ['Cookie options used for rt.']),
      think('Ordering check: assertNotReused() must run before markRotated(); otherwise a replayed token would be marked by its own request and then look rotated.'),
      look(rng, 'src/auth/errors.ts', ['Which error codes refresh() may throw.']),
      search(rng, 'ACCESS_TTL_MS|REFRESH_TTL_MS', 'src', ['TTL constants in use.']),
      look(rng, 'src/auth/middleware.ts', ['What happens to the cookie when a rotation is refused: refreshErrorHandler.']),
      think('Legacy tokens: familyId null adopts newFamilyId() in refresh(); the session row keeps NULL until worker-session writes families on login. Both are fine for ADR-0007 §5.'),
      search(rng, 'invalid_grant', 'src', ['Every refusal path answers invalid_grant?']),
      look(rng, SPEC, ['What the integration tests assert about the cookie.'], () => caseRange(world, SPEC, 'rotates the refresh token on every refresh')),
    ],
    limit: {
      at: rng.int(58, 72) / 100,
      resume: () => ({
        reacted: true,
        text: 'Resuming in a fresh context generation after the context limit. Carried over: refresh() rotates and carries the family, issueToken() takes an optional familyId, the route sets the new rt cookie. Re-reading refresh.ts to continue.',
        calls: [read(refresh)],
      }),
    },
    final: () => ({
      text: `Rotation done: refresh() marks the presented token rotated and issues a new one of the same family (legacy tokens adopt a new family); issueToken() takes an optional familyId; POST /auth/refresh sets the new rt cookie.${world.has('F1') ? '' : ' Reuse revocation still waits on worker-family.'}`,
      calls: [],
    }),
  });
};

// ---------------------------------------------------------------------------------------------
// worker-family

const workerFamily: Behavior = function* (ctx) {
  const { rng, world } = ctx;
  const family = 'src/auth/family.ts';
  const familySpec = 'tests/unit/family.spec.ts';
  const adrRange = (): [number, number] => {
    const from = world.lineOf(ADR, '3. Reuse detection');
    return [from, from + 8];
  };
  yield* planned(ctx, {
    total: rng.int(30, 37),
    ownTests: familySpec,
    beats: [
      () => ({ text: 'Starting on token families: family.ts and its unit tests.', calls: [read(family), read(familySpec)] }),
      () => ({ text: 'What fails today.', calls: [npmTest(familySpec)] }),
      glued(() => ({ text: 'Both failures are the stub. Who calls assertNotReused(), and what will the store offer?', calls: [grep('assertNotReused', 'src'), read('src/auth/store.ts')] })),
      () => ({
        text: 'Decided: not rotated → return; rotated → revokeFamily() when the token has a family (a legacy token has none, nothing to revoke), one warn log with familyId and userId only, then invalid_grant.',
        calls: [edit('F0'), edit('F1')],
      }),
      () => ({ text: 'Unit tests for the reuse path.', calls: [npmTest(familySpec)] }),
      () => ({
        text: 'Checking every log call in src/auth against the constraint.',
        calls: [grep('logger\\.', 'src/auth')],
        findings: [
          {
            title: 'Reuse revokes the family',
            content: 'assertNotReused() revokes the family of a reused (already rotated) token through store.revokeFamily(), logs only familyId, userId and the count (never the token or its hash) and throws AuthError invalid_grant. A reused legacy token has no family: it is refused without a revocation.',
            files: [family],
          },
        ],
      }),
      () => ({ text: 'Re-reading ADR-0007 §3-§5 against what I wrote.', calls: [read(ADR, ...adrRange())] }),
      () => ({ text: 'The integration view of the reuse case.', calls: [npmTest(SPEC)] }),
      () => ({ text: 'Final run of the family tests.', calls: [npmTest(familySpec)] }),
    ],
    fillers: [
      () => ({ text: world.has('F1') ? rng.pick(['Re-reading family.ts as it stands.', 'family.ts after the change.']) : 'family.ts again: what the stub promises to its callers.', calls: [read(family)] }),
      search(rng, 'revokeFamily', 'src', ['Is revokeFamily() on the store yet (worker-store)?', 'Where revokeFamily() is defined and used.']),
      look(rng, 'tests/support/fakes.ts', ['The fake store behind the unit tests.']),
      rerun(rng, familySpec, ['Family tests again.', 'Re-running the family tests.']),
      search(rng, 'AuthError', 'src/auth', ['How the other refusals are thrown.']),
      think('A reused legacy token has no family to revoke; it is still refused, and its session ends at the next login. Writing that down for the review.'),
      search(rng, 'rotatedAt', 'src', ['Where rotatedAt is read and written.']),
      look(rng, 'src/auth/refresh.ts', ['How refresh() calls into family.ts.']),
      look(rng, familySpec, ['The reuse test in detail.'], () => caseRange(world, familySpec, 'revokes the family when a rotated token is reused')),
      search(rng, 'invalid_grant', 'src', ['How refusals reach the client: invalid_grant everywhere?']),
      think('The log carries the number of revoked tokens: an operator can tell a real replay (several live tokens) from a stale client (none).'),
      look(rng, 'src/lib/logger.ts', ['The logger writes every field as is: one more reason to pass ids only.']),
    ],
    final: () => ({
      text: 'Family revocation done: assertNotReused() revokes the family of a reused token, logs ids only (familyId, userId, count) and refuses with invalid_grant; tests/unit/family.spec.ts passes (3 tests).',
      calls: [],
    }),
  });
};

// ---------------------------------------------------------------------------------------------
// worker-session

const workerSession: Behavior = function* (ctx) {
  const { rng, world, id } = ctx;
  const session = 'src/auth/session.ts';
  const middleware = 'src/auth/middleware.ts';
  const mwSpec = 'tests/unit/middleware.spec.ts';
  let leakLine = 0;
  yield* planned(ctx, {
    total: rng.int(30, 37),
    ownTests: mwSpec,
    beats: [
      () => ({ text: 'Starting on sessions and the logging path: session.ts and middleware.ts.', calls: [read(session), read(middleware)] }),
      () => {
        leakLine = world.lineOf(middleware, "logger.warn('rejected access token'");
        return { text: `probe-callers flagged ${middleware}:${leakLine}: requireSession() logs { token }. Test first; reading the middleware tests.`, calls: [read(mwSpec)] };
      },
      () => ({ text: "Adding 'never logs the presented token' to the middleware tests.", calls: [edit('Mt1')] }),
      glued(() => ({ text: 'It should fail now.', calls: [npmTest(mwSpec)] })),
      glued((o) => ({ reacted: true, text: `${react(world, id, o)}\nFails as expected: the token is in the warn call. Logging only whether a token was sent and why it was refused.`, calls: [edit('Me1')] })),
      () => ({ text: 'Middleware tests again.', calls: [npmTest(mwSpec)] }),
      () => ({
        text: 'Making sure no other log call in src takes a token.',
        calls: [grep('logger\\.', 'src')],
        findings: [
          {
            title: 'middleware.ts no longer logs tokens',
            content: `requireSession() logged the presented bearer token on every rejection (src/auth/middleware.ts:${leakLine} before the fix). It now logs tokenPresent and the reason only; 'never logs the presented token' in tests/unit/middleware.spec.ts guards it.`,
            files: [middleware, mwSpec],
          },
        ],
      }),
      () => ({
        text: 'Sessions next. Decided: createSession() starts the family and stores it on the session row; legacy sessions keep family_id NULL and adopt a family on their next refresh (in refresh.ts, worker-rotation).',
        calls: [edit('Se1')],
      }),
      () => ({ text: 'loadSession() must read the family back.', calls: [edit('Se2')] }),
      () => ({ text: 'Whole suite with sessions and middleware in.', calls: [npmTest()] }),
      () => ({ text: 'Final run of the middleware tests.', calls: [npmTest(mwSpec)] }),
    ],
    fillers: [
      () => ({ text: world.has('Se1') ? rng.pick(['Re-reading session.ts as it stands.', 'session.ts after the change.']) : 'session.ts again: where a family would be created on login.', calls: [read(session)] }),
      search(rng, 'loadSession|createSession', 'src', ['Callers of createSession() and loadSession().', 'Who uses the session functions?']),
      search(rng, 'endSession', 'src', ['The logout path.']),
      look(rng, 'src/lib/logger.ts', ['What the logger does with fields: everything is written as is.']),
      rerun(rng, mwSpec, ['Middleware tests again.']),
      search(rng, 'family_id', 'db', ['Is sessions.family_id in the migration (worker-store)?']),
      look(rng, 'tests/support/testApi.ts', ['How the test API creates legacy sessions.']),
      think('endSession() revokes by session_id, which already covers every token of the session and so of its family; no change needed there.'),
      search(rng, 'res\\.locals', 'src', ['What the middleware hands to the routes.']),
      () => (world.has('Me1') ? { text: 'middleware.ts after the fix, in full.', calls: [read(middleware)] } : undefined),
      look(rng, 'src/admin/impersonate.ts', ['Impersonation sessions: issueToken() gives them a family by default; nothing to change there.']),
      search(rng, 'INSERT INTO sessions', 'src', ['Every writer of the sessions table.']),
      think('refreshErrorHandler logs only the reason of a refused refresh; no token there. Leaving it as is.'),
    ],
    final: () => ({
      text: 'Sessions and logging done: createSession() starts a family and stores it (sessions.family_id), loadSession() reads it, legacy sessions keep NULL until their next refresh; requireSession() no longer logs the token, with a test that guards it.',
      calls: [],
    }),
  });
};

// ---------------------------------------------------------------------------------------------
// test-1 (spawns debug-1 when the concurrency test shows a race)

const testAgent: Behavior = function* (ctx) {
  const { rng, world, id } = ctx;
  let last: TurnOutcome | undefined = yield { text: 'Starting on the integration tests: the spec and the ADR it has to cover.', calls: [read(SPEC), read(ADR)] };
  last = yield { text: `${react(world, id, last)}\nThe test client, to see which helpers exist for families and legacy sessions.`, calls: [read('tests/support/testApi.ts')] };
  last = yield { text: `${react(world, id, last)}\nliveTokens(), familyOf() and legacySession() are there. Baseline run.`, calls: [npmTest(SPEC)] };
  last = yield { text: `${react(world, id, last)}\nADR-0007 §4 (concurrency) and §5 (legacy sessions) have no test. Adding 'concurrent refresh keeps one family': five parallel refreshes of one token, exactly one wins.`, calls: [edit('T1')] };
  last = yield { text: "And 'a legacy session without a family keeps working'.", calls: [edit('T2')] };
  last = yield { text: 'The suite with both new tests.', calls: [npmTest(SPEC)] };

  const race = (o: TurnOutcome | undefined) => testResults(o).some((r) => r.tests?.failed.some((f) => f.name === 'concurrent refresh keeps one family' && f.missing.length === 1 && f.missing[0] === 'CAS'));
  const green = (o: TurnOutcome | undefined) => testResults(o).some((r) => r.tests?.failed.length === 0);
  let spawned = false;
  let debugReported = false;
  let blockers: string[] = [];
  let confirmations = 0;
  for (let k = 0; ; k++) {
    if (k > 150) throw new Error('test-1 never saw the suite green');
    const lead = react(world, id, last);
    if (!spawned && race(last)) {
      spawned = true;
      const failure: TestReport['failed'][number] | undefined = testResults(last)
        .flatMap((r) => r.tests?.failed ?? [])
        .find((f) => f.name === 'concurrent refresh keeps one family');
      last = yield {
        reacted: true,
        text: `«concurrent refresh keeps one family» fails (${failure?.short ?? 'more than one winner'}) although rotation and markRotated() are both in: a race, not a missing piece. Handing it to a debug agent and keeping the rest of the suite under watch.`,
        calls: [],
        spawn: [{ agentId: 'debug-1', role: 'debug', task: TASKS['debug-1'], model: MODELS.main, budget: 32_000 }],
        findings: [
          {
            title: 'Concurrent refresh forks the family',
            content: `Five parallel refreshes of one token: more than one answers 200 (${failure?.short ?? ''}). With rotation and markRotated() in place this is a race in the rotation path, not a missing feature; it does not fail on every run.`,
            files: [SPEC, 'src/auth/store.ts', 'src/auth/refresh.ts'],
          },
        ],
      };
      continue;
    }
    if (spawned && world.isDone('debug-1') && !debugReported) {
      debugReported = true;
      last = yield { reacted: true, text: `debug-1 reported: ${world.agent('debug-1').lastText.split('\n')[0] ?? ''} Running the suite to confirm.`, calls: [npmTest(SPEC)] };
      continue;
    }
    const debugDone = spawned && world.isDone('debug-1');
    if (debugDone && green(last)) {
      confirmations++;
      if (confirmations >= 2) break;
      last = yield { text: lines(lead, 'Green. A race can pass by luck, so once more.'), calls: [npmTest(SPEC)] };
      continue;
    }
    if (debugDone) {
      last = yield { text: lines(lead, 'Not green yet; running it again.'), calls: [npmTest(SPEC)] };
      continue;
    }
    if (spawned) {
      // debug-1 is working: mostly short waits, a run now and then.
      if (k % 4 === 3) last = yield { text: lines(lead, `debug-1 is on the race (turn ${world.agent('debug-1').turns}). Re-running the suite meanwhile.`), calls: [npmTest(SPEC)] };
      else last = yield { text: lines(lead, rng.pick([`Waiting for debug-1 (turn ${world.agent('debug-1').turns}).`, 'debug-1 is still on the race; nothing to add to the tests meanwhile.', 'Waiting on debug-1 before the next run.'])), calls: [] };
      continue;
    }
    // Waiting for the workers whose parts the failing tests need: re-run every third turn, look at something relevant in between.
    const found = testResults(last).flatMap((r) => r.tests?.failed ?? []);
    if (testResults(last).length > 0) blockers = unique(found.flatMap((f) => ownersOf(world, f.missing))).filter((o) => o !== id);
    const waitingOn = blockers.filter((b) => !world.isDone(b));
    const who = waitingOn.length > 0 ? listOf(waitingOn) : 'the workers';
    if (k % 3 === 0 || waitingOn.length === 0) last = yield { text: lines(lead, rng.pick(['Re-running the suite.', 'Another run to see what landed.', 'Suite again.'])), calls: [npmTest(SPEC)] };
    else if (k % 3 === 1 && rng.chance(0.5)) {
      last = yield { text: lines(lead, `While ${who} work${waitingOn.length === 1 ? 's' : ''}, checking the path my concurrency test exercises.`), calls: [rng.pick([grep('markRotated', 'src'), read('src/auth/refresh.ts'), grep('familyId', 'src/auth')])] };
    } else last = yield { text: lines(lead, rng.pick([`Waiting for ${who}.`, `Nothing to change in the tests until ${who} land${waitingOn.length === 1 ? 's' : ''} the missing parts.`, `The failing cases wait on ${who}; holding off.`])), calls: [] };
  }
  yield {
    text: `Integration suite green twice in a row: ${world.casesOf(SPEC).length} tests, including 'concurrent refresh keeps one family' and 'a legacy session without a family keeps working'. The race fix from debug-1 holds.`,
    calls: [],
    done: true,
  };
};

// ---------------------------------------------------------------------------------------------
// debug-1

const debugAgent: Behavior = function* (ctx) {
  const { rng, world } = ctx;
  const store = 'src/auth/store.ts';
  let greenRuns = 0;
  /** Runs after the fix in which the concurrency test passed (a reaction is drafted before its own turn's edit runs). */
  const countGreen = (o: TurnOutcome | undefined) => {
    if (!world.has('CAS')) return;
    for (const r of testResults(o)) if (r.tests?.failed.every((f) => f.name !== 'concurrent refresh keeps one family')) greenRuns++;
  };
  yield* planned(ctx, {
    total: rng.int(11, 14),
    beats: [
      () => ({ text: 'Reproducing first.', calls: [npmTest(SPEC)] }),
      () => ({ text: 'The new test and the refresh path it drives.', calls: [read(SPEC, ...caseRange(world, SPEC, 'concurrent refresh keeps one family')), read('src/auth/refresh.ts')] }),
      () => ({ text: 'refresh() relies on markRotated() returning true for exactly one caller. Reading markRotated().', calls: [read(store)] }),
      () => ({ text: 'Any other writer of rotated_at?', calls: [grep('markRotated', 'src'), grep('rotated_at', '.')] }),
      () => ({
        text: `Root cause: markRotated() reads rotated_at and writes it in a second statement (${store}:${world.lineOf(store, 'SELECT rotated_at')}). Five concurrent refreshes all read NULL before any write lands, so several win and each issues a child token: the family forks. ADR-0007 §4 asks for a single compare-and-set.`,
        calls: [read(ADR, world.lineOf(ADR, '4. Concurrency'), world.lineOf(ADR, '4. Concurrency') + 2)],
        findings: [
          {
            title: 'Root cause: read-then-write in markRotated()',
            content: 'PgRefreshTokenStore.markRotated() SELECTs rotated_at, then UPDATEs it. Concurrent refreshes of one token all see NULL and all return true, so refresh() issues several child tokens and the family forks. Fix: one conditional UPDATE … WHERE rotated_at IS NULL, success iff rowCount === 1.',
            files: [store, 'src/auth/refresh.ts'],
          },
        ],
      }),
      () => ({ text: 'The fix: a single UPDATE … WHERE token_hash = $1 AND rotated_at IS NULL, true iff it changed one row.', calls: [edit('CAS')] }),
      () => ({ text: 'The concurrency test again.', calls: [npmTest(SPEC)] }),
      glued((o) => {
        countGreen(o);
        return { reacted: true, text: `${react(world, ctx.id, o)}\nStore tests, since markRotated() changed.`, calls: [npmTest('tests/unit/store.spec.ts')] };
      }),
    ],
    fillers: [
      (o) => {
        countGreen(o);
        return world.has('CAS')
          ? { text: rng.pick(['Once more, to be sure the race is gone.', 'Another run: a race can pass by luck, a fix must pass every time.']), calls: [npmTest(SPEC)] }
          : { text: 'A race can pass by luck: running it again to see how often it fails.', calls: [npmTest(SPEC)] };
      },
      () => (world.has('CAS') ? { text: 'markRotated() after the fix, in context.', calls: [read(store)] } : undefined),
      () => (world.has('CAS') ? undefined : { text: 'How refresh() reacts when markRotated() returns false.', calls: [read('src/auth/refresh.ts', world.lineOf('src/auth/refresh.ts', 'await assertNotReused('), world.lineOf('src/auth/refresh.ts', 'await assertNotReused(') + 5)] }),
      search(rng, 'rowCount', 'src', ['Other places that trust rowCount.']),
      think('A transaction with SELECT … FOR UPDATE would also serialize it, at the cost of a lock and a round trip; the conditional UPDATE is atomic on its own.'),
    ],
    final: (o) => {
      countGreen(o);
      return {
        text: `Fixed the race: markRotated() is a single compare-and-set UPDATE (… WHERE rotated_at IS NULL); of five concurrent refreshes exactly one wins and the others get invalid_grant. The concurrency test passed ${plural(Math.max(1, greenRuns), 'run')} after the fix.`,
        calls: [],
      };
    },
  });
};

// ---------------------------------------------------------------------------------------------
// reviewer-1

const reviewer: Behavior = function* (ctx) {
  const { rng, world } = ctx;
  let suite = 0;
  yield* planned(ctx, {
    total: rng.int(16, 20),
    beats: [
      () => ({ text: 'Review of the rotation change against ADR-0007. Starting from the diff.', calls: [run('git diff --stat')] }),
      () => ({ text: 'The heart of it: refresh().', calls: [run('git diff src/auth/refresh.ts')] }),
      glued(() => ({ text: 'Order in refresh(): validity checks, assertNotReused(), markRotated(), issueToken(). A replayed token is caught before it can be marked. Now the reuse path.', calls: [read('src/auth/family.ts')] })),
      () => ({ text: 'The store and the migration.', calls: [run('git diff src/auth/store.ts'), run('git diff db/migrations/0042_refresh_token_family.sql')] }),
      () => ({ text: 'markRotated() is one conditional UPDATE: atomic. Columns are nullable: no rewrite. Constraint check: every log call in src.', calls: [grep('logger\\.(info|warn|error)', 'src')] }),
      glued((o) => {
        const hits = o?.results[0]?.hits ?? [];
        return {
          reacted: true,
          text: `${plural(hits.length, 'log call')} in src; none takes a token or a hash (reuse logs familyId and userId; requireSession() logs tokenPresent). Sessions next.`,
          calls: [read('src/auth/session.ts'), grep('issueToken\\(', 'src')],
          findings: [
            {
              title: 'Review: no token value or hash reaches a log',
              content: `Checked the ${plural(hits.length, 'logger call')} in src: ${hits.map((h) => h.split(': ')[0]).join(', ')}. Fields are ids, reasons and counts only; the middleware leak found by probe-callers is fixed and guarded by a unit test.`,
              files: unique(hits.map((h) => h.split(':')[0] as string)),
            },
          ],
        };
      }),
      () => ({ text: 'The new integration tests, as written.', calls: [read(SPEC, world.lineOf(SPEC, "it('concurrent refresh keeps one family'"), world.lineOf(SPEC, "it('a legacy session without a family keeps working'") + 6)] }),
      () => ({ text: 'Whole suite.', calls: [npmTest()] }),
      glued((o) => {
        suite = testResults(o)[0]?.tests?.passed.length ?? 0;
        return {
          reacted: true,
          text: `${react(world, ctx.id, o)}\nOne design point to record for the primary.`,
          calls: [],
          findings: [
            {
              title: 'Review: a lost race answers 401 without revoking the family',
              content: 'When two refreshes of one token race, the loser gets invalid_grant and the family stays live (refresh.ts). This matches ADR-0007 §4 (exactly one wins) and does not log out a client that double-submits; presenting the old token again later is reuse and revokes the family (§3). Follow-up: the grace window from the ADR consequences.',
              files: ['src/auth/refresh.ts', ADR],
            },
          ],
        };
      }),
    ],
    fillers: [
      look(rng, 'src/auth/refresh.ts', ['refresh.ts in full, as merged.']),
      look(rng, 'src/auth/middleware.ts', ['The middleware fix in context.']),
      () => ({ text: 'Session changes.', calls: [run('git diff src/auth/session.ts')] }),
      () => ({ text: 'The route change.', calls: [run('git diff src/routes/auth.ts')] }),
      search(rng, 'familyId', 'src', ['Every use of familyId: none may be logged with a token.']),
      look(rng, ADR, ['ADR-0007 once more, clause by clause.']),
      think('Expired tokens: refresh() checks expiry before the reuse check, so an expired replayed token is refused without revoking the family. Acceptable: it cannot be used anyway.'),
      search(rng, 'hashToken\\(', 'src', ['Where hashes are computed: only for the store lookup?']),
      look(rng, 'tests/unit/store.spec.ts', ['Store tests: do they pin the compare-and-set?']),
    ],
    final: () => ({
      text: `Approve. Rotation, reuse revocation and the compare-and-set in markRotated() match ADR-0007; legacy sessions adopt a family on their next refresh; no token value or hash reaches a log; the full suite passes (${plural(suite, 'test')}). Follow-ups: a grace window for retried refreshes, and a metric for family revocations.`,
      calls: [],
    }),
  });
};

// ---------------------------------------------------------------------------------------------
// primary

const primaryAgent: Behavior = function* (ctx) {
  const { rng, world, id } = ctx;
  let last: TurnOutcome | undefined = yield {
    text: 'Objective, acceptance criteria and the logging constraint are pinned. Reading ADR-0007 and the open TODOs before planning.',
    calls: [read(ADR), grep('TODO\\(ADR-0007\\)', 'src')],
  };
  last = yield { text: `${react(world, id, last)}\nReading the refresh path and the store, and a baseline of the integration suite.`, calls: [read('src/auth/refresh.ts'), read('src/auth/store.ts'), npmTest(SPEC)] };
  const spawn: SpawnRequest[] = [
    { agentId: 'probe-callers', role: 'probe', task: TASKS['probe-callers'], model: MODELS.fast, budget: 16_000 },
    { agentId: 'worker-store', role: 'worker', task: TASKS['worker-store'], model: MODELS.main, budget: 64_000 },
    { agentId: 'worker-rotation', role: 'worker', task: TASKS['worker-rotation'], model: MODELS.main, budget: 64_000, dependsOn: ['probe-callers'] },
    { agentId: 'worker-family', role: 'worker', task: TASKS['worker-family'], model: MODELS.main, budget: 64_000, dependsOn: ['probe-callers'] },
    { agentId: 'worker-session', role: 'worker', task: TASKS['worker-session'], model: MODELS.main, budget: 48_000, dependsOn: ['probe-callers'] },
    { agentId: 'test-1', role: 'test', task: TASKS['test-1'], model: MODELS.main, budget: 48_000 },
    { agentId: 'reviewer-1', role: 'reviewer', task: TASKS['reviewer-1'], model: MODELS.review, budget: 64_000, dependsOn: [...WORKERS, 'test-1'] },
  ];
  last = yield {
    text: [
      react(world, id, last),
      'Plan (ADR-0007), one owner per file so no two agents edit the same code:',
      '- probe-callers (probe): callers of issueToken()/refresh() and any token reaching a log.',
      '- worker-store: migration 0042, markRotated() and revokeFamily().',
      '- worker-rotation, worker-family, worker-session: rotation in refresh(), reuse revocation, sessions and the logging path; they start once the probe has reported.',
      '- test-1: integration tests for concurrency and legacy sessions.',
      '- reviewer-1: reviews once every worker and test-1 are done.',
      'Decided: the family id travels with every refresh token; legacy rows adopt one on their next refresh.',
    ].join('\n'),
    calls: [],
    spawn,
  };
  const seen = new Set<string>();
  const known = new Set(world.agents.keys());
  let findingsRead = world.findings.length;
  const checks: Record<string, () => CallDraft> = {
    'worker-store': () => grep('markRotated|revokeFamily', 'src/auth/store.ts'),
    'worker-rotation': () => read('src/auth/refresh.ts', world.lineOf('src/auth/refresh.ts', 'export async function refresh('), world.lineOf('src/auth/refresh.ts', 'export async function refresh(') + 12),
    'worker-family': () => read('src/auth/family.ts'),
    'worker-session': () => grep('logger\\.warn', 'src/auth/middleware.ts'),
    'test-1': () => grep("it\\('", SPEC),
  };
  /** What the primary looks at itself now and then while it waits. */
  const progress: (() => Draft)[] = [
    () => ({ text: 'Progress check on the ADR TODOs.', calls: [grep('TODO\\(ADR-0007\\)', 'src')] }),
    () => ({ text: 'How much has changed so far.', calls: [run('git diff --stat')] }),
    () => ({ text: 'Running the whole suite myself to see where we stand.', calls: [npmTest()] }),
  ];
  let checksDone = 0;
  for (let k = 0; ; k++) {
    if (k > 190) throw new Error('the primary waited too long');
    const children = world.childrenOf(id);
    const fresh = children.filter((c) => c.status === 'done' && !seen.has(c.agentId));
    if (fresh.length === 0 && children.every((c) => c.status === 'done')) break;
    const lead = react(world, id, last);
    const news = world.findings.slice(findingsRead).filter((f) => f.agentId !== id);
    findingsRead = world.findings.length;
    const newsText = news.length === 0 ? '' : `New finding${news.length === 1 ? '' : 's'}: ${news.slice(0, 2).map((f) => `«${f.title}» (${f.agentId})`).join('; ')}${news.length > 2 ? ` and ${news.length - 2} more` : ''}.`;
    const newcomers = [...world.agents.values()].filter((a) => !known.has(a.agentId));
    for (const a of newcomers) known.add(a.agentId);
    const spawnText = newcomers.map((a) => `${a.parent} started ${a.agentId} (${a.role}): ${a.task}.`).join(' ');
    if (fresh.length > 0) {
      // One report per turn: each gets read (and maybe checked) on its own.
      const c = fresh[0] as (typeof fresh)[number];
      seen.add(c.agentId);
      const check = checks[c.agentId];
      const spot = check !== undefined && rng.chance(0.7);
      last = yield {
        text: lines(lead, `Report in from ${c.agentId}: ${c.lastText.split('\n')[0] ?? ''}`, spawnText, newsText, spot ? 'Spot-checking it myself.' : ''),
        calls: spot && check ? [check()] : [],
      };
      continue;
    }
    const running = children.filter((c) => c.status !== 'done' && world.runnableNow(c.agentId)).map((c) => `${c.agentId} (turn ${c.turns})`);
    const blocked = children.filter((c) => c.status !== 'done' && !world.runnableNow(c.agentId)).map((c) => c.agentId);
    const waiting = `${rng.pick(['Waiting on', 'Still running:', 'In progress:', 'No new reports. Running:', 'Nothing to decide yet. Working:'])} ${running.join(', ')}${blocked.length > 0 ? `; ${listOf(blocked)} ${blocked.length === 1 ? 'waits' : 'wait'} for ${rng.pick(['dependencies', 'the others'])}` : ''}.`;
    if (k % 8 === 5) {
      const p = (progress[checksDone++ % progress.length] as () => Draft)();
      last = yield { text: lines(lead, spawnText, newsText, waiting, p.text), calls: p.calls ?? [] };
    } else last = yield { text: lines(lead, spawnText, newsText, waiting), calls: [] };
  }
  last = yield { text: lines(react(world, id, last), 'Every report is in and reviewer-1 approves. Final check of the whole suite.'), calls: [npmTest()] };
  const passed = testResults(last)[0]?.tests?.passed.length ?? 0;
  yield {
    text: `Done: refresh tokens rotate on every refresh, reuse of a rotated token revokes its family, concurrent refreshes have exactly one winner, legacy sessions adopt a family on their next refresh, and no token value or hash is logged. Full suite: ${plural(passed, 'test')} passing. Follow-ups from the review: a grace window for retried refreshes, a metric for family revocations.`,
    calls: [],
    done: true,
  };
};

export const BEHAVIORS: Record<string, Behavior> = {
  primary: primaryAgent,
  'probe-callers': probeCallers,
  'worker-store': workerStore,
  'worker-rotation': workerRotation,
  'worker-family': workerFamily,
  'worker-session': workerSession,
  'test-1': testAgent,
  'debug-1': debugAgent,
  'reviewer-1': reviewer,
};
