import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Audit } from '../../../../../engine/conversation/ContextAudit';
import { ContextError } from '../../../../../engine/conversation/ContextError';
import { ContextManager, RESUME_BRIDGE_TEXT } from '../../../../../engine/conversation/ContextManager';
import { extractiveSummarizer } from '../../../../../engine/conversation/extractiveSummarizer';
import type { TurnLease } from '../../../../../engine/conversation/TurnLease';
import { assistant, bytes, expectValid, newManager, testPorts, user, words, wordTokenizer } from './conversationFixtures';

/** Fixed seed: a failure reproduces, and the file stays fast. */
const RUNS = { numRuns: 120, seed: 20260719 };
const TIMEOUT = 60_000;

type Step =
  | { kind: 'turn' }
  | { kind: 'user'; size: number; newTurn: boolean }
  | { kind: 'assistant'; size: number; results: number[] }
  | { kind: 'truncate'; percent: number }
  | { kind: 'compress'; percent: number; preserve: number; summaryMax: number; fail: boolean }
  | { kind: 'transient'; size: number }
  | { kind: 'stale' }
  | { kind: 'malformed'; results: number[] };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 2, arbitrary: fc.constant({ kind: 'turn' as const }) },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('user' as const), size: fc.integer({ min: 1, max: 40 }), newTurn: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }) }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('assistant' as const), size: fc.integer({ min: 0, max: 40 }), results: fc.array(fc.integer({ min: 0, max: 60 }), { maxLength: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('truncate' as const), percent: fc.integer({ min: 0, max: 110 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('compress' as const),
      percent: fc.integer({ min: 0, max: 110 }),
      preserve: fc.integer({ min: 0, max: 2 }),
      summaryMax: fc.integer({ min: 1, max: 80 }),
      fail: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('transient' as const), size: fc.integer({ min: 1, max: 30 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'stale' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('malformed' as const), results: fc.array(fc.integer({ min: 0, max: 10 }), { minLength: 1, maxLength: 4 }) }) },
);

/** A budget as a share of the current context, so mutations happen at every size. */
const budget = (m: ContextManager, percent: number): number => Math.floor((m.tokens() * percent) / 100);

/** What a destructive audit promises: the removed ids left the request, and the budget holds unless it says otherwise. */
function expectAuditHonest(m: ContextManager, audit: Audit, max: number): void {
  const active = new Set(m.buildMessages({ transients: false }).map((x) => x.id));
  expect(audit.removedMessageIds.filter((id) => active.has(id))).toEqual([]);
  expect(audit.tokensAfter).toBe(m.tokens());
  if (audit.outcome === 'applied' && !audit.overBudget) expect(m.tokens()).toBeLessThanOrEqual(max);
  if (audit.outcome === 'applied') expect(m.audits().at(-1)).toEqual(audit);
}

/** Runs one random session, checking every invariant after every step. */
async function run(steps: Step[]): Promise<ContextManager> {
  const m = newManager();
  const summarizer = extractiveSummarizer(wordTokenizer);
  const failing = { summarize: () => Promise.reject(new Error('offline')) };
  const old: TurnLease[] = [];
  let lease = m.beginTurn();
  let call = 0;
  for (const s of steps) {
    const before = bytes(m);
    const refused = (act: () => unknown) => {
      expect(act).toThrow(ContextError);
      expect(bytes(m)).toBe(before);
    };
    switch (s.kind) {
      case 'turn':
        old.push(lease);
        lease = m.beginTurn();
        break;
      case 'user':
        if (s.newTurn) {
          old.push(lease);
          lease = m.beginTurn();
        }
        m.appendTurn(lease, user(words(s.size)));
        break;
      case 'assistant': {
        const group = assistant(words(s.size), s.results.map((n) => ({ id: `call-${++call}`, result: words(n) })));
        if (m.groups().length === 0) refused(() => m.appendTurn(lease, group));
        else if (s.size === 0 && s.results.length === 0) refused(() => m.appendTurn(lease, group));
        else m.appendTurn(lease, group);
        break;
      }
      case 'truncate': {
        const max = budget(m, s.percent);
        expectAuditHonest(m, m.truncateToBudget(max), max);
        break;
      }
      case 'compress': {
        const max = budget(m, s.percent);
        const audit = await m.replacePrefixWithSummary(s.fail ? failing : summarizer, { maxTokens: max, preserveRecentTurns: s.preserve, summaryMaxTokens: s.summaryMax });
        if (audit.outcome !== 'applied') expect(bytes(m)).toBe(before);
        expectAuditHonest(m, audit, max);
        break;
      }
      case 'transient':
        m.injectTransient('memory', words(s.size, 'mem'));
        expect(bytes(m)).toBe(before);
        break;
      case 'stale': {
        const stale = old.at(-1);
        if (stale) refused(() => m.appendTurn(stale, user('too late now')));
        break;
      }
      case 'malformed': {
        const group = assistant('x', s.results.map((n) => ({ id: `call-${++call}`, result: words(n) })));
        refused(() => m.appendTurn(lease, group.slice(0, -1)));
        break;
      }
    }
    expectValid(m);
  }
  return m;
}

describe('random conversations', () => {
  it('[provider-valid] [no-orphans] [one-system-prompt] [one-summary] [transient-not-persisted] [transient-tail] every mutation keeps every invariant', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 80, size: 'max' }), async (steps) => {
        const m = await run([{ kind: 'user', size: 5, newTurn: false }, ...steps]);
        const built = m.buildMessages();
        const transients = built.filter((x) => 'kind' in x && x.kind === 'transient');
        expect(transients.every((x) => x.content.startsWith('mem'))).toBe(true);
        // [transient-tail]: transients only after every history message, so the cached prefix never moves.
        expect(built.slice(built.length - transients.length)).toEqual(transients);
        expect(bytes(ContextManager.restore(m.snapshot(), testPorts()))).toBe(bytes(m));
      }),
      RUNS,
    );
  }, TIMEOUT);

  it('[group-atomic] [truncate-newest] [resume-bridge] truncation keeps a suffix of whole turns; a suffix opened by an assistant group gets the bridge', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 40, size: 'max' }), fc.integer({ min: 0, max: 110 }), async (steps, percent) => {
        const m = await run([{ kind: 'user', size: 5, newTurn: false }, ...steps.filter((s) => s.kind !== 'compress')]);
        const before = m.groups();
        const audit = m.truncateToBudget(budget(m, percent));
        const after = m.groups();
        expect(after).toEqual(before.slice(before.length - after.length));
        expect(audit.removedGroupIds).toEqual(before.slice(0, before.length - after.length).map((g) => g.id));
        const dropped = before[before.length - after.length - 1];
        if (dropped && after[0]) expect(after[0].turnId).not.toBe(dropped.turnId);
        const built = m.buildMessages({ transients: false });
        const head = built.find((x) => x.role !== 'system');
        expect(head?.role).toBe('user');
        if (after[0]?.messages[0]?.role !== 'user') expect(head?.content).toBe(RESUME_BRIDGE_TEXT);
        if (audit.overBudget) expect(new Set(after.map((g) => g.turnId)).size).toBe(1);
      }),
      RUNS,
    );
  }, TIMEOUT);
});
