import { describe, expect, it } from 'vitest';
import type { ContextManager } from '../../../../../engine/conversation/ContextManager';
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

/** The newest user-started suffix: what must stay even over budget. */
const newestSuffix = (m: ContextManager): number => {
  const groups = m.groups();
  let i = groups.length - 1;
  while (i > 0 && groups[i]?.messages[0]?.role !== 'user') i--;
  return groups.length - i;
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
