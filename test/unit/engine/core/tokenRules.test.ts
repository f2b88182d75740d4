import { generationTokens } from '../../../../engine/generations/Generation';
import { getEncodingNameForModel, type TiktokenModel } from 'js-tiktoken/lite';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../../../engine/Engine';
import { roleInstructions } from '../../../../engine/prompt/roleInstructions';
import { estimateTokens } from '../../../../engine/tokens/estimateTokens';
import { createTiktokenTokenizer, encodingForModel } from '../../../../engine/tokens/tiktokenTokenizer';
import { identity, item, newEngine, taskItems } from '../../../support/engineFixtures';

function busyEngine() {
  const calls: string[] = [];
  const { engine } = newEngine({ tokenizer: { encoding: 'quarter', count: (t) => (calls.push(t), Math.ceil(t.length / 4)) } });
  engine.registerAgent(identity({ budget: 3000, scope: { maxItemTokens: 120 } }));
  for (const i of taskItems()) engine.addItem(i);
  for (let n = 0; n < 40; n++) engine.addItem(item({ id: `code-${n}`, title: `code ${n}`, kind: 'code', class: 'finding', content: `line ${n} of the token store\n`.repeat(10 + n) }));
  engine.addItem(item({ id: 'hist', title: 'hist', kind: 'transcript', class: 'raw_history', content: 'raw' }));
  return { engine, calls };
}

describe('[tokens-memo] token counts are memoized by content hash', () => {
  it('[tokens-memo] rebuilding an unchanged pool (with clipping and compression) tokenizes nothing new', () => {
    const { engine, calls } = busyEngine();
    const g = engine.build('worker-1', { phase: 'implement', input: 'go' }).generation;
    // The first build really clipped, compressed and dropped, so all those paths were counted once.
    expect(g.compressed.some((c) => c.method === 'clip')).toBe(true);
    expect(g.dropped.length).toBeGreaterThan(0);
    const misses = engine.tokens.stats.misses;
    const tokenized = calls.length;
    expect(misses).toBe(tokenized);

    engine.rebuild('worker-1');
    engine.build('worker-1', { phase: 'implement', input: 'go' });
    engine.refresh('worker-1', 'nothing to drop');
    expect(engine.tokens.stats.misses).toBe(misses);
    expect(calls.length).toBe(tokenized);
    expect(engine.tokens.stats.hits).toBeGreaterThan(0);
  });

  it('[tokens-memo] only new content is tokenized: a new input, a new item', () => {
    const { engine, calls } = busyEngine();
    engine.build('worker-1', { phase: 'implement', input: 'go' });
    const before = calls.length;
    engine.build('worker-1', { phase: 'implement', input: 'a brand new question' });
    expect(calls.slice(before)).toEqual(['a brand new question']);
    engine.addItem(item({ id: 'late', title: 'late', kind: 'code', class: 'finding', content: 'fresh content' }));
    engine.build('worker-1', { phase: 'implement', input: 'a brand new question' });
    expect(calls.slice(before + 1)).toHaveLength(1);
    expect(calls.at(-1)).toContain('fresh content');
  });
});

describe('[tokens-encoding] the encoding follows the model', () => {
  it.each([
    ['gpt-4', 'cl100k_base'],
    ['gpt-4-turbo', 'cl100k_base'],
    ['gpt-4-32k', 'cl100k_base'],
    ['gpt-3.5-turbo', 'cl100k_base'],
    ['gpt-35-turbo', 'cl100k_base'],
    ['text-embedding-ada-002', 'cl100k_base'],
    ['text-embedding-3-small', 'cl100k_base'],
    ['openai/GPT-4', 'cl100k_base'],
    ['  gpt-4  ', 'cl100k_base'],
    ['gpt-4o', 'o200k_base'],
    ['gpt-4o-mini', 'o200k_base'],
    ['gpt-4.1', 'o200k_base'],
    ['gpt-4.5-preview', 'o200k_base'],
    ['gpt-5', 'o200k_base'],
    ['o3-mini', 'o200k_base'],
    ['claude-sonnet-4-5', 'o200k_base'],
    ['deepseek-chat', 'o200k_base'],
    ['', 'o200k_base'],
    ['some-unknown-model', 'o200k_base'],
  ])('[tokens-encoding] %j -> %s', (model, encoding) => {
    expect(encodingForModel(model)).toBe(encoding);
  });

  it.each(['gpt-4', 'gpt-4-32k', 'gpt-3.5-turbo', 'text-embedding-ada-002', 'gpt-4o', 'gpt-4o-mini', 'o1', 'gpt-4.1'] as TiktokenModel[])(
    '[tokens-encoding] %s agrees with js-tiktoken',
    (model) => {
      expect(encodingForModel(model)).toBe(getEncodingNameForModel(model));
    },
  );

  it('[tokens-encoding] o200k_base by default, and the engine reports the encoding it counts in', () => {
    expect(createTiktokenTokenizer().encoding).toBe('o200k_base');
    expect(new Engine({ tokenizer: createTiktokenTokenizer() }).tokens.encoding).toBe('o200k_base');
    expect(new Engine({ tokenizer: createTiktokenTokenizer(encodingForModel('gpt-4')) }).tokens.encoding).toBe('cl100k_base');
  });
});

describe('[tokens-estimate] the cheap estimate', () => {
  it.each([
    ['', 0],
    ['abcd', 1],
    ['abcdefgh', 2],
    ['abcdefghi', 3],
    ['é', 1],
    ['éé', 1],
    ['ééé', 2],
    ['😀', 1],
    ['上下文', 3],
  ])('[tokens-estimate] %j is ceil(UTF-8 bytes / 4) = %d', (text, tokens) => {
    expect(estimateTokens(text)).toBe(tokens);
    expect(estimateTokens(text)).toBe(Math.ceil(Buffer.byteLength(text) / 4));
  });

  it('[tokens-estimate] budgets use the tokenizer, not the estimate', () => {
    // One token per UTF-16 unit: four times the estimate on ASCII.
    const { engine } = newEngine({ tokenizer: { encoding: 'chars', count: (t) => t.length } });
    engine.registerAgent(identity({ budget: 20_000 }));
    for (const i of taskItems()) engine.addItem(i);
    const g = engine.build('worker-1', { phase: 'implement' }).generation;
    const l0 = roleInstructions('worker');
    expect(g.layerTokens.L0).toBe(l0.length);
    expect(g.layerTokens.L0).not.toBe(estimateTokens(l0));
    expect(generationTokens(g)).toBeGreaterThan(3 * estimateTokens(engine.build('worker-1', { phase: 'implement' }).text));
    expect(g.indicators.utilization).toBe(generationTokens(g) / 20_000);
  });
});
