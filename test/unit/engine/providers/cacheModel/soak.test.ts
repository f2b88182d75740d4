import { describe, expect, it } from 'vitest';
import { createCacheModel, type CacheProvider, type ModelCall, type PromptSegment } from '../../../../../engine/providers/cacheModel';
import { MIN, SEC } from './helpers';

/**
 * 100k calls from 8 agents over ~2.3 simulated days: a shared system prompt, then each agent's
 * sliding window of its last 10 turns (a bounded context), breakpoints on the system prompt and
 * on the last turn. Every call adds up to 11 trie nodes; entries live 5 minutes (+ one sweep
 * interval before they are dropped), so the nodes held can never exceed the nodes written in that
 * window, however long the run.
 */
const CALLS = 100_000;
const GAP = 2 * SEC;
const AGENTS = 8;
const WINDOW = 10;

function call(i: number, provider: CacheProvider): ModelCall {
  const agent = i % AGENTS;
  const turn = Math.floor(i / AGENTS);
  const window: PromptSegment[] = [];
  for (let t = Math.max(0, turn - WINDOW + 1); t <= turn; t++) window.push({ id: `a${agent}-t${t}`, tokens: 150 + (t % 7) * 40 });
  window[window.length - 1] = { ...window[window.length - 1]!, cacheControl: '5m' };
  return {
    at: i * GAP,
    model: provider === 'anthropic' ? 'claude-sonnet-4-5' : 'gpt-4o',
    ...(provider === 'openai' ? { cacheKey: `agent-${agent}` } : {}),
    segments: [{ id: 'system', tokens: 3000, cacheControl: '5m' }, ...window],
  };
}

describe('[cache-model] bounded memory', () => {
  it.each(['anthropic', 'openai'] as const)('[cache-model] %s: a 100k-call soak holds only what is live', (provider) => {
    const model = createCacheModel({ provider });
    const ttl = 5 * MIN;
    const sweep = 5 * MIN;
    const bound = (Math.ceil((ttl + sweep) / GAP) + 1) * (WINDOW + 1);
    let maxRetained = 0;
    let maxLive = 0;
    let read = 0;
    let prompt = 0;
    for (let i = 0; i < CALLS; i++) {
      const u = model.observe(call(i, provider));
      read += u.cacheRead;
      prompt += u.promptTokens;
      if (i % 1000 === 999) {
        const s = model.stats();
        maxRetained = Math.max(maxRetained, s.retainedNodes);
        maxLive = Math.max(maxLive, s.liveEntries);
        expect(s.liveEntries).toBeLessThanOrEqual(s.retainedNodes);
      }
    }
    expect(maxRetained).toBeLessThanOrEqual(bound);
    expect(maxLive).toBeLessThanOrEqual(bound);
    // The workload does hit the cache (the figures are not trivially zero).
    expect(read / prompt).toBeGreaterThan(0.5);
    // After an idle hour everything has expired and one call later only that call's prefix is held.
    model.observe({ ...call(CALLS, provider), at: CALLS * GAP + 60 * MIN });
    expect(model.stats()).toMatchObject({ namespaces: 1, retainedNodes: WINDOW + 1 });
  });
});
