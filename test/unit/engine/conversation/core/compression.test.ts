import { describe, expect, it } from 'vitest';
import type { ContextManager } from '../../../../../engine/conversation/ContextManager';
import { extractiveSummarizer, SUMMARY_HEADER } from '../../../../../engine/conversation/extractiveSummarizer';
import type { SummaryMessage } from '../../../../../engine/conversation/Message';
import type { Summarizer } from '../../../../../engine/conversation/Summarizer';
import { assistant, bytes, deferredSummarizer, expectValid, fakeSummarizer, newManager, turn, user, words, wordTokenizer } from './conversationFixtures';

/** System 10 tokens, then `n` turns of a 10-token question and a 10-token answer: 10 + 20n. */
function turns(n: number, m = newManager()): ContextManager {
  for (let i = 0; i < n; i++) turn(m, user(words(6, `q${i}w`)), assistant(words(6, `a${i}w`)));
  return m;
}

const summaryOf = (m: ContextManager): SummaryMessage | undefined => m.buildMessages({ transients: false }).find((x): x is SummaryMessage => x.role === 'system' && x.kind === 'summary');

const OPTIONS = { maxTokens: 60, preserveRecentTurns: 1, summaryMaxTokens: 10 };

describe('compress', () => {
  it('[compress-atomic] [audit-destructive] the oldest prefix is replaced by one summary; the recent tail stays verbatim', async () => {
    const m = turns(4);
    expect(m.tokens()).toBe(90);
    const tail = m.groups().slice(-2);
    const prefix = m.groups().slice(0, 6);
    const summarizer = fakeSummarizer('three turns were about setup');
    const audit = await m.replacePrefixWithSummary(summarizer, OPTIONS);
    expect(summarizer.calls).toHaveLength(1);
    expect(summarizer.calls[0]?.previousSummary).toBeUndefined();
    expect(summarizer.calls[0]?.messages.map((x) => x.id)).toEqual(prefix.flatMap((g) => g.messages.map((x) => x.id)));
    expect(summarizer.calls[0]?.maxTokens).toBe(10);
    const summary = summaryOf(m);
    expect(summary).toMatchObject({ content: 'three turns were about setup', sourceTurnIds: [...new Set(prefix.map((g) => g.turnId))] });
    expect(audit).toMatchObject({
      operation: 'compress',
      outcome: 'applied',
      removedGroupIds: prefix.map((g) => g.id),
      removedMessageIds: prefix.flatMap((g) => g.messages.map((x) => x.id)),
      addedMessageIds: [summary?.id],
      tokensBefore: 90,
      tokensAfter: 10 + 9 + 20,
      overBudget: false,
    });
    expect(m.groups()).toEqual(tail);
    const active = new Set(m.buildMessages().map((x) => x.id));
    expect(audit.removedMessageIds.some((id) => active.has(id))).toBe(false);
    expect(m.audits()).toEqual([audit]);
    expectValid(m);
  });

  it('[compress-atomic] at the limit and one above nothing is summarized; one below it compresses', async () => {
    for (const [max, outcome] of [
      [90, 'unchanged'],
      [91, 'unchanged'],
      [89, 'applied'],
    ] as const) {
      const m = turns(4);
      const summarizer = fakeSummarizer('short');
      const audit = await m.replacePrefixWithSummary(summarizer, { ...OPTIONS, maxTokens: max });
      expect(audit.outcome).toBe(outcome);
      expect(summarizer.calls).toHaveLength(outcome === 'applied' ? 1 : 0);
      expect(m.tokens()).toBeLessThanOrEqual(max);
    }
  });

  it('[compress-atomic] nothing is compressed when every turn is preserved; the audit says over budget', async () => {
    const m = turns(3);
    const before = bytes(m);
    const audit = await m.replacePrefixWithSummary(fakeSummarizer(), { ...OPTIONS, preserveRecentTurns: 3 });
    expect(audit).toMatchObject({ outcome: 'unchanged', overBudget: true });
    expect(bytes(m)).toBe(before);
  });

  const failures: [string, Summarizer, RegExp][] = [
    ['throws', { summarize: () => { throw new Error('model offline'); } }, /summarizer failed \(model offline\)/],
    ['rejects', { summarize: () => Promise.reject(new Error('timeout')) }, /summarizer failed \(timeout\)/],
    ['returns an empty summary', fakeSummarizer(''), /empty summary/],
    ['returns only whitespace', fakeSummarizer(' \n '), /empty summary/],
    ['returns a non-string', { summarize: () => undefined as unknown as string }, /empty summary/],
    ['returns an over-long summary', fakeSummarizer(words(11)), /11 tokens exceeds summaryMaxTokens 10/],
  ];
  it.each(failures)('[compress-atomic] when the summarizer %s the snapshot stays byte-identical and the audit says why', async (_, summarizer, why) => {
    const m = turns(4);
    await m.replacePrefixWithSummary(fakeSummarizer('first summary'), { ...OPTIONS, maxTokens: 80 });
    turn(m, user(words(6)), assistant(words(6)));
    const before = bytes(m);
    const revision = m.revision;
    const audit = await m.replacePrefixWithSummary(summarizer, OPTIONS);
    expect(audit.outcome).toBe('failed');
    expect(audit.reason).toMatch(why);
    expect(audit.removedMessageIds).toEqual([]);
    expect(bytes(m)).toBe(before);
    expect(m.revision).toBe(revision);
    const retry = await m.replacePrefixWithSummary(fakeSummarizer('retried'), OPTIONS);
    expect(retry.outcome).toBe('applied');
    expectValid(m);
  });

  it('[compress-atomic] an append while the summarizer works is kept; the compression fails safely and a retry succeeds', async () => {
    const m = turns(4);
    const slow = deferredSummarizer();
    const pending = m.replacePrefixWithSummary(slow, OPTIONS);
    await slow.called;
    const during = bytes(m);
    turn(m, user('a new question arrived'));
    const afterAppend = bytes(m);
    expect(afterAppend).not.toBe(during);
    slow.resolve('stale summary');
    const audit = await pending;
    expect(audit).toMatchObject({ outcome: 'failed', removedMessageIds: [] });
    expect(audit.reason).toContain('changed while summarizing');
    expect(bytes(m)).toBe(afterAppend);
    expect(m.groups().at(-1)?.messages[0]?.content).toBe('a new question arrived');
    expect((await m.replacePrefixWithSummary(fakeSummarizer('fresh'), OPTIONS)).outcome).toBe('applied');
    expect(m.groups().at(-1)?.messages[0]?.content).toBe('a new question arrived');
    expectValid(m);
  });

  it('[compress-atomic] [one-summary] of two concurrent compressions the first to answer applies and the other changes nothing', async () => {
    const m = turns(4);
    const first = deferredSummarizer();
    const second = deferredSummarizer();
    const a = m.replacePrefixWithSummary(first, OPTIONS);
    const b = m.replacePrefixWithSummary(second, OPTIONS);
    await Promise.all([first.called, second.called]);
    second.resolve('second wins');
    expect((await b).outcome).toBe('applied');
    const after = bytes(m);
    first.resolve('first is late');
    expect((await a).outcome).toBe('failed');
    expect(bytes(m)).toBe(after);
    expect(summaryOf(m)?.content).toBe('second wins');
    expectValid(m);
  });

  it('[one-summary] [summary-keeps] five compressions leave one summary that still holds a fact of the first prefix', async () => {
    const m = newManager();
    const summarizer = extractiveSummarizer(wordTokenizer);
    const options = { maxTokens: 250, preserveRecentTurns: 2, summaryMaxTokens: 150 };
    const compressedTurns: string[] = [];
    for (let round = 1; round <= 5; round++) {
      turn(m, user(`We decided to name release ${round} codename-${round}x.`), assistant('Noted, thanks.'));
      for (let i = 0; i < 8; i++) turn(m, user(`ok ${words(20, `r${round}c${i}`)}`), assistant('sure thing'));
      const previous = summaryOf(m);
      const audit = await m.replacePrefixWithSummary(summarizer, options);
      expect(audit.outcome).toBe('applied');
      compressedTurns.push(...audit.removedTurnIds);
      const summary = summaryOf(m);
      if (previous) expect(audit.removedMessageIds[0]).toBe(previous.id);
      expect(audit.addedMessageIds).toEqual([summary?.id]);
      expect(m.buildMessages().filter((x) => x.role === 'system' && x.kind === 'summary')).toHaveLength(1);
      expect(summary?.content.split(SUMMARY_HEADER)).toHaveLength(2);
      expect(summary?.sourceTurnIds).toEqual(compressedTurns);
      for (let k = 1; k <= round; k++) expect(summary?.content).toContain(`codename-${k}x`);
      expect(wordTokenizer.count(summary?.content ?? '')).toBeLessThanOrEqual(150);
      expect(m.tokens()).toBeLessThanOrEqual(250);
      expectValid(m);
    }
    expect(m.audits().filter((a) => a.operation === 'compress')).toHaveLength(5);
  });

  it('[compress-atomic] the summarizer may answer synchronously or asynchronously', async () => {
    for (const summarizer of [fakeSummarizer('sync answer'), { summarize: async () => 'async answer' }]) {
      const m = turns(4);
      expect((await m.replacePrefixWithSummary(summarizer, OPTIONS)).outcome).toBe('applied');
    }
  });

  it('invalid options are refused before anything happens', async () => {
    const m = turns(4);
    await expect(m.replacePrefixWithSummary(fakeSummarizer(), { ...OPTIONS, summaryMaxTokens: 0 })).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(m.replacePrefixWithSummary(fakeSummarizer(), { ...OPTIONS, preserveRecentTurns: -1 })).rejects.toMatchObject({ code: 'invalid_argument' });
  });
});
