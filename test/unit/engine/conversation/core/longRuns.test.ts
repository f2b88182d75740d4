import { describe, expect, it } from 'vitest';
import { RESUME_BRIDGE_TEXT, type ContextManager } from '../../../../../engine/conversation/ContextManager';
import { extractiveSummarizer } from '../../../../../engine/conversation/extractiveSummarizer';
import type { GroupInput } from '../../../../../engine/conversation/readGroup';
import { intIn, seededRandom } from '../../../../support/seededRandom';
import { assistant, expectValid, newManager, user, words, wordTokenizer } from './conversationFixtures';

const TURNS = 1_000;
const TIMEOUT = 60_000;

/** One realistic turn: a question, an answer with 0..4 calls and their results, sometimes a follow-up answer. */
function randomTurn(rand: () => number, t: number): GroupInput[] {
  const calls = Array.from({ length: intIn(rand, 0, 4) }, (_, k) => ({ id: `t${t}-c${k}`, name: 'read_file', args: `{"path":"src/m${t}.ts"}`, result: words(intIn(rand, 0, 30), 'out'), isError: rand() < 0.1 }));
  const groups = [user(`Turn ${t}: please check src/m${t}.ts ${words(intIn(rand, 2, 20), 'q')}`), assistant(`Looking ${words(intIn(rand, 0, 15), 'a')}`, calls)];
  if (rand() < 0.3) groups.push(assistant(`We decided to keep parseConfig in turn ${t}.`));
  return groups;
}

/** The groups of the newest turn: what must stay even over budget. */
const newestSuffix = (m: ContextManager): number => {
  const groups = m.groups();
  return groups.filter((g) => g.turnId === groups.at(-1)?.turnId).length;
};

describe('long conversations', () => {
  it(
    '[truncate-newest] [provider-valid] 1,000 turns under truncate stay within budget and valid through hundreds of truncations',
    () => {
      const rand = seededRandom(31);
      const m = newManager();
      const max = 260;
      let applied = 0;
      for (let t = 0; t < TURNS; t++) {
        const lease = m.beginTurn();
        for (const g of randomTurn(rand, t)) m.appendTurn(lease, g);
        if (rand() < 0.2) m.injectTransient('memory', `recalled ${words(5, 'm')}`);
        const audit = m.truncateToBudget(max);
        if (audit.outcome === 'applied') applied++;
        if (audit.overBudget) expect(m.groups()).toHaveLength(newestSuffix(m));
        else expect(m.tokens()).toBeLessThanOrEqual(max);
        expect(m.groups().at(-1)?.turnId).toBe(lease.turnId);
        expectValid(m);
      }
      expect(applied).toBeGreaterThan(500);
      expect(m.audits()).toHaveLength(200);
    },
    TIMEOUT,
  );

  it(
    '[compress-atomic] [one-summary] [provider-valid] 1,000 turns under compress stay within budget with one bounded summary through hundreds of compressions',
    async () => {
      const rand = seededRandom(47);
      const m = newManager();
      const summarizer = extractiveSummarizer(wordTokenizer);
      const options = { maxTokens: 520, preserveRecentTurns: 2, summaryMaxTokens: 120 };
      let applied = 0;
      for (let t = 0; t < TURNS; t++) {
        const lease = m.beginTurn();
        for (const g of randomTurn(rand, t)) m.appendTurn(lease, g);
        const audit = await m.replacePrefixWithSummary(summarizer, options);
        if (audit.outcome === 'applied') applied++;
        expect(audit.outcome).not.toBe('failed');
        if (!audit.overBudget) expect(m.tokens()).toBeLessThanOrEqual(options.maxTokens);
        expect(m.measure().summary).toBeLessThanOrEqual(options.summaryMaxTokens + 4);
        const turns = new Set(m.groups().map((g) => g.turnId));
        expect(turns.size).toBeGreaterThanOrEqual(Math.min(t + 1, options.preserveRecentTurns));
        expectValid(m);
      }
      expect(applied).toBeGreaterThan(200);
      expect(m.snapshot().summary?.content).toContain('parseConfig');
    },
    TIMEOUT,
  );
});

describe('autonomous runs: one user message, then hundreds of model calls', () => {
  /** A task, then one turn per model call: an assistant message with a call and its result. */
  function autonomous(m: ContextManager, calls: number, from = 0): void {
    if (from === 0) {
      const lease = m.beginTurn();
      m.appendTurn(lease, user('Task: make the flaky date parser deterministic; never change its public API.'));
    }
    for (let t = from; t < from + calls; t++) {
      const lease = m.beginTurn();
      m.appendTurn(lease, assistant(`Step ${t}: reading ${words(6, 'a')}`, [{ id: `c${t}`, name: 'read_file', result: words(20, `r${t}x`) }]));
    }
  }

  it('[truncate-newest] [resume-bridge] [provider-valid] truncation cuts between model calls and opens the kept history with the bridge', () => {
    const m = newManager();
    autonomous(m, 1);
    let applied = 0;
    for (let t = 1; t < 300; t++) {
      autonomous(m, 1, t);
      const audit = m.truncateToBudget(400);
      if (audit.outcome === 'applied') applied++;
      expect(audit.overBudget ?? false).toBe(false);
      expect(m.tokens()).toBeLessThanOrEqual(400);
      const built = expectValid(m);
      if (applied > 0) expect(built[1]).toMatchObject({ role: 'user', content: RESUME_BRIDGE_TEXT });
    }
    expect(applied).toBeGreaterThan(250);
  });

  it('[compress-atomic] [resume-bridge] [provider-valid] compression folds old model calls (and the task) into the summary and keeps the recent calls verbatim', async () => {
    const m = newManager();
    const summarizer = extractiveSummarizer(wordTokenizer);
    autonomous(m, 1);
    let applied = 0;
    for (let t = 1; t < 300; t++) {
      autonomous(m, 1, t);
      const audit = await m.replacePrefixWithSummary(summarizer, { maxTokens: 600, preserveRecentTurns: 3, summaryMaxTokens: 150 });
      if (audit.outcome === 'applied') applied++;
      expect(audit.overBudget ?? false).toBe(false);
      expectValid(m);
    }
    expect(applied).toBeGreaterThan(20);
    expect(m.snapshot().summary?.content).toMatch(/never change its public API/);
    expect(new Set(m.groups().map((g) => g.turnId)).size).toBeGreaterThanOrEqual(3);
  });
});
