import { describe, expect, it } from 'vitest';
import { AgentConversation } from '../../../../engine/conversation/AgentConversation';
import { DEFAULT_CONTEXT_CONFIG } from '../../../../engine/conversation/contextConfig';
import { MODEL_SUMMARY_HEADER, modelSummarizer } from '../../../../engine/runtime/modelSummarizer';
import type { Provider, ProviderRequest } from '../../../../engine/providers/Provider';
import { ProviderError } from '../../../../engine/providers/Provider';
import { SkillRegistry } from '../../../../engine/skills/SkillRegistry';
import { assistant, bytes, expectValid, newManager, SYSTEM_PROMPT, testPorts, turn, user, wordTokenizer, words } from '../conversation/core/conversationFixtures';
import { countWords, skill } from '../skills/skillFixtures';

function provider(answer: (r: ProviderRequest) => string | Error): Provider & { requests: ProviderRequest[] } {
  const requests: ProviderRequest[] = [];
  return {
    name: 'fake',
    requests,
    complete: async (r) => {
      requests.push(r);
      const a = answer(r);
      if (a instanceof Error) throw a;
      return { text: a, toolCalls: [], usage: { input: 10, cacheRead: 0, cacheWrite: 0, output: 5 }, model: r.model, stopReason: 'end_turn' };
    },
  };
}

describe('the model-backed summarizer', () => {
  it('[summary-model] asks the model with the keep/omit instructions, the cap and the prefix as a transcript, and heads the answer as lossy', async () => {
    const p = provider(() => 'Decided: keep the parser. Constraint: never log tokens. Open: fix src/dates.ts.');
    const s = modelSummarizer(p, { model: 'claude-haiku-4-5', tokenizer: wordTokenizer });
    const text = await s.summarize({
      previousSummary: 'earlier: the user wants no API change',
      messages: [
        { id: 'u', role: 'user', content: 'Fix the date parser; never log tokens.' },
        { id: 'a', role: 'assistant', content: 'Reading it.', toolCalls: [{ id: 'c', name: 'read_file', arguments: '{"path":"src/dates.ts"}' }] },
        { id: 't', role: 'tool', toolCallId: 'c', content: 'export function parse() {}', isError: false },
      ],
      maxTokens: 120,
    });
    expect(text.startsWith(`${MODEL_SUMMARY_HEADER}\n`)).toBe(true);
    expect(text).toContain('never log tokens');
    const r = p.requests[0]!;
    expect(r.model).toBe('claude-haiku-4-5');
    expect(r.system[0]!.text).toMatch(/Keep: decisions.*constraint.*unresolved tasks.*named entities/s);
    expect(r.system[0]!.text).toMatch(/Omit: raw tool output/);
    expect(r.maxOutputTokens).toBeLessThan(120);
    expect(r.messages[0]!.content).toContain('earlier: the user wants no API change');
    expect(r.messages[0]!.content).toContain('call read_file {"path":"src/dates.ts"}');
    expect(r.tools).toEqual([]);
  });

  it('[summary-model] [compress-atomic] an over-long answer, a blank one or a provider error fails the compression and leaves the history byte-identical', async () => {
    for (const answer of [() => words(500), () => '   ', () => new ProviderError('server', 'anthropic: 529 overloaded', 'anthropic', 529, 3)]) {
      const m = newManager();
      for (let n = 0; n < 6; n++) turn(m, user(`question ${n} ${words(30)}`), assistant(`answer ${n} ${words(30)}`));
      const before = bytes(m);
      const audit = await m.replacePrefixWithSummary(modelSummarizer(provider(answer), { model: 'm', tokenizer: wordTokenizer }), { maxTokens: 200, preserveRecentTurns: 1, summaryMaxTokens: 60 });
      expect(audit.outcome).toBe('failed');
      expect(bytes(m)).toBe(before);
    }
  });

  it('[summary-model] a conversation compresses through the model when it exceeds max_tokens', async () => {
    const p = provider(() => 'Decided: rotate tokens on every refresh.');
    const conv = new AgentConversation(SYSTEM_PROMPT, testPorts(), { config: { ...DEFAULT_CONTEXT_CONFIG, strategy: 'compress', maxTokens: 200, preserveRecentTurns: 1, summaryMaxTokens: 60 }, summarizer: modelSummarizer(p, { model: 'm', tokenizer: wordTokenizer }) });
    for (let n = 0; n < 5; n++) {
      const lease = conv.beginTurn();
      conv.append(lease, user(`question ${n} ${words(30)}`));
      conv.append(lease, assistant(`answer ${n}`));
      await conv.afterTurn();
    }
    expect(p.requests.length).toBeGreaterThan(0);
    expect(conv.manager.snapshot().summary?.content).toContain('rotate tokens on every refresh');
    expectValid(conv.manager);
  });
});

describe('ContextManager.selectSkills', () => {
  it('[skill-select] [transient-not-persisted] injects only the selected skills as this request\'s skills transient', () => {
    const registry = new SkillRegistry(countWords);
    expect(registry.add([skill({ name: 'typescript-conventions', selectors: [{ type: 'language', any: ['typescript'] }] }, 'Use strict TypeScript.'), skill({ name: 'python-conventions', selectors: [{ type: 'language', any: ['python'] }] }, 'Use ruff.')])).toEqual([]);
    const m = newManager();
    turn(m, user('fix the parser'));
    const before = bytes(m);
    const selection = m.selectSkills(registry, { role: 'worker', phase: 'implement', task: 'fix the parser', files: ['src/parser.ts'], languages: [], budget: 1000 });
    expect(selection.selected.map((s) => s.name)).toEqual(['typescript-conventions']);
    expect(selection.skipped.map((s) => s.name)).toEqual(['python-conventions']);
    const built = m.buildMessages();
    expect(built.at(-1)).toMatchObject({ role: 'user', kind: 'transient', source: 'skills', content: expect.stringContaining('<skill name="typescript-conventions"') });
    expect(bytes(m)).toBe(before);
    expect(m.selectSkills(registry, { role: 'worker', phase: 'implement', task: '', files: ['README.md'], languages: [], budget: 1000 }).selected).toEqual([]);
    expect(m.buildMessages().some((x) => 'kind' in x && x.kind === 'transient')).toBe(false);
  });
});
