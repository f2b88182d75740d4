import { generationTokens } from '../../../../engine/generations/Generation';
import { describe, expect, it } from 'vitest';
import { STALE_PREFIX_SHARE } from '../../../../engine/generations/carriedLayers';
import type { ContextItem } from '../../../../engine/items/ContextItem';
import { createItem } from '../../../../engine/items/createItem';
import { MAX_PACK_RATIO, startGeneration, type StartInput } from '../../../../engine/generations/startGeneration';
import { BlockCounter } from '../../../../engine/prompt/BlockCounter';
import { renderItem } from '../../../../engine/prompt/renderItem';
import { variable } from '../../../../engine/strategies/variable';
import type { Strategy } from '../../../../engine/strategies/Strategy';
import { TokenCounter } from '../../../../engine/tokens/TokenCounter';
import { identity, item, newEngine, T0, taskItems } from '../../../support/engineFixtures';
import { STRATEGIES } from '../../../support/enginePools';

const blocks = () => new BlockCounter(new TokenCounter({ encoding: 'quarter', count: (t) => Math.ceil(t.length / 4) }));
const code = (n: number): ContextItem =>
  createItem({ id: `c${String(n).padStart(3, '0')}`, kind: 'code', class: 'finding', content: `refresh token code ${n} `.repeat(20), source: 'repository_source', agentId: 'a', taskId: 'task-auth', at: T0 });

function start(strategy: Strategy, budget: number, pool: ContextItem[]) {
  const input: StartInput = {
    identity: identity({ budget }),
    strategy,
    scope: {},
    number: 1,
    boundary: { kind: 'start', reason: 'first build' },
    pool,
    seenSeq: pool.length,
    request: { taskId: 'task-auth', task: 'refresh tokens', files: [], symbols: [], keywords: ['refresh'], role: 'worker', phase: 'implement', failures: [], now: T0 },
    reserve: 40,
    blocks: blocks(),
    minOptionalScore: 0.3,
    compressMinTokens: 96,
  };
  return startGeneration(input).generation;
}

describe('[hysteresis-10] the band between re-packs', () => {
  it('[hysteresis-10] a strategy asking to pack 100% (or more) is capped at 90% of the budget', () => {
    const pool = Array.from({ length: 200 }, (_, n) => code(n));
    expect(MAX_PACK_RATIO).toBe(0.9);
    for (const budget of [1000, 4000, 20_000]) {
      const greedy = start({ ...variable, packRatio: 1 }, budget, pool);
      const greedier = start({ ...variable, packRatio: 1.5 }, budget, pool);
      const capped = start({ ...variable, packRatio: 0.9 }, budget, pool);
      expect(generationTokens(greedy)).toBeLessThanOrEqual(budget * 0.9);
      expect(generationTokens(greedy)).toBeGreaterThan(budget * 0.8);
      expect(greedy.included.map((e) => e.item.id)).toEqual(capped.included.map((e) => e.item.id));
      expect(generationTokens(greedier)).toBe(generationTokens(capped));
    }
  });

  it.each(STRATEGIES)('[hysteresis-10] %s: a fresh pack of a large pool stays within 90%% of the budget', (strategy) => {
    const { engine } = newEngine();
    engine.registerAgent(identity({ budget: 5000 }), strategy);
    for (const i of taskItems()) engine.addItem(i);
    for (let n = 0; n < 150; n++) engine.addItem(item({ id: `c${n}`, kind: 'code', class: 'task_state', content: `refresh token code ${n} `.repeat(12), phase: 'implement' }));
    const g = engine.build('worker-1', { phase: 'implement', keywords: ['refresh'] }).generation;
    expect(generationTokens(g)).toBeLessThanOrEqual(g.budget * 0.9);
  });

  it('[hysteresis-10] [rebuild-at-budget] a re-pack happens only when appending would cross 100%, and lands at or below 90%', () => {
    const { engine } = newEngine();
    engine.registerAgent(identity({ budget: 3000 }), 'full_history');
    for (const i of taskItems()) engine.addItem(i);
    let prev = engine.build('worker-1', { phase: 'implement' });
    let repacks = 0;
    for (let k = 0; k < 80; k++) {
      const added = engine.addItem(item({ id: `own${k}`, kind: 'finding', class: 'finding', content: `step ${k} `.repeat(10 + ((k * 7) % 30)) }));
      const r = engine.build('worker-1', { phase: 'implement' });
      if (r.started) {
        repacks++;
        // The append it replaced would have crossed the budget...
        const addedTokens = Math.ceil(renderItem(added).length / 4);
        expect(generationTokens(prev.generation) + addedTokens).toBeGreaterThan(3000);
        // ...and the fresh pack leaves at least 10% free.
        expect(generationTokens(r.generation)).toBeLessThanOrEqual(2700);
      } else {
        expect(generationTokens(r.generation)).toBeLessThanOrEqual(3000);
      }
      prev = r;
    }
    expect(repacks).toBeGreaterThan(1);
  });
});

describe('[rebuild-keeps-prefix] a rebuild keeps the emitted L2 order in front', () => {
  function withAppended() {
    const { engine } = newEngine();
    engine.registerAgent(identity({ budget: 20_000 }));
    // Arrival order is the reverse of durability order, so a full re-sort would be visible.
    engine.addItem(item({ id: 'a', kind: 'code', class: 'finding', durability: 'transient', content: 'alpha refresh token' }));
    engine.build('worker-1', { phase: 'implement' });
    engine.addItem(item({ id: 'b', kind: 'code', class: 'finding', durability: 'phase', content: 'bravo refresh token' }));
    engine.build('worker-1', { phase: 'implement' });
    engine.addItem(item({ id: 'c', kind: 'code', class: 'finding', durability: 'project', content: 'charlie refresh token' }));
    const r = engine.build('worker-1', { phase: 'implement' });
    expect(r.generation.included.map((e) => e.item.id)).toEqual(['a', 'b', 'c']);
    return { engine, l2: r.prompt.layers.L2 };
  }

  it.each([
    ['manual rebuild', (e: ReturnType<typeof newEngine>['engine']) => e.rebuild('worker-1')],
    ['phase change', (e: ReturnType<typeof newEngine>['engine']) => e.build('worker-1', { phase: 'verify' })],
    ['pin of an unrelated item', (e: ReturnType<typeof newEngine>['engine']) => (e.addItem(item({ id: 'p', kind: 'note', class: 'ephemeral', content: 'pin me' })), e.pin('p'), e.build('worker-1', { phase: 'implement' }))],
  ])('[rebuild-keeps-prefix] %s: the surviving L2 keeps its order and its bytes', (_name, act) => {
    const { engine, l2 } = withAppended();
    const r = act(engine);
    expect(r.started).toBe(true);
    expect(r.generation.boundary.kind).toBe('rebuild');
    expect(r.generation.included.filter((e) => e.layer === 'L2').map((e) => e.item.id)).toEqual(['a', 'b', 'c']);
    expect(r.prompt.layers.L2.startsWith(l2)).toBe(true);
  });

  it('[rebuild-keeps-prefix] the kept prefix ends at the first item no longer selected; the rest follow in durability order', () => {
    const { engine } = withAppended();
    engine.addItem(item({ id: 'd', kind: 'code', class: 'finding', durability: 'project', content: 'delta refresh token' }));
    engine.remove('b');
    const ids = engine.build('worker-1', { phase: 'implement' }).generation.included.map((e) => e.item.id);
    // 'a' keeps its place; after the gap left by 'b', c and d are sorted (project before transient).
    expect(ids[0]).toBe('a');
    expect(ids.slice(1).sort()).toEqual(['c', 'd']);
    expect(ids).toHaveLength(3);
  });

  it('[rebuild-keeps-prefix] at a budget rebuild, entries a fresh pack would leave out stay in place within half the pack target, marked, and the pack stays under 90%', () => {
    const { engine } = newEngine();
    engine.registerAgent(identity({ budget: 3000 }), 'variable');
    for (const i of taskItems()) engine.addItem(i);
    let prev = engine.build('worker-1', { phase: 'implement' });
    let rebuilt: ReturnType<typeof engine.build> | undefined;
    // Each finding is a little more relevant than the one before, so a fresh pack prefers the newest.
    for (let k = 0; k < 60 && !rebuilt; k++) {
      engine.addItem(item({ id: `f${k}`, kind: 'finding', class: 'finding', relevance: 0.3 + k * 0.01, content: `finding ${k} about the refresh token store `.repeat(6) }));
      const r = engine.build('worker-1', { phase: 'implement' });
      if (r.started) rebuilt = r;
      else prev = r;
    }
    expect(rebuilt?.generation.boundary.reason).toMatch(/^budget reached/);
    const r = rebuilt!;
    const kept = r.generation.included.filter((e) => e.why.includes('kept in place at the rebuild'));
    expect(kept.length).toBeGreaterThan(0);
    const target = Math.floor(3000 * 0.6);
    expect(kept.reduce((n, e) => n + e.tokens, 0)).toBeLessThanOrEqual(target * STALE_PREFIX_SHARE);
    expect(generationTokens(r.generation)).toBeLessThanOrEqual(2700);
    // The new L2 begins with the previous L2's first blocks, byte for byte.
    const prevL2 = prev.prompt.l2Blocks ?? [];
    const nextL2 = r.prompt.l2Blocks ?? [];
    const shared = nextL2.findIndex((b, k) => b !== prevL2[k]);
    expect(shared === -1 ? nextL2.length : shared).toBeGreaterThanOrEqual(kept.length);
    // The stale entries are the previous generation's entries, not re-scored copies of other items.
    for (const e of kept) expect(prev.generation.included.some((p) => p.item === e.item)).toBe(true);
  });

  it('[rebuild-keeps-prefix] at a budget rebuild, an entry the fresh pack would take only compressed keeps its place with the bytes already shown', () => {
    // 'big' was the first L2 block of the previous generation; 'hot' scores higher and a fresh pack takes it first.
    const big = createItem({ id: 'big', kind: 'code', class: 'finding', content: 'function rotate(family) {\n  return family.counter + 1;\n}\n'.repeat(24), source: 'repository_source', agentId: 'a', taskId: 'task-auth', at: T0, relevance: 0.2 });
    const hot = createItem({ id: 'hot', kind: 'code', class: 'finding', content: 'refresh token refresh token store '.repeat(40), source: 'repository_source', agentId: 'a', taskId: 'task-auth', at: T0, relevance: 1 });
    const input = (budget: number, previous?: StartInput['previousL2']): StartInput => ({
      identity: identity({ budget }),
      strategy: variable,
      scope: {},
      number: 2,
      boundary: { kind: 'rebuild', reason: 'budget reached' },
      pool: [big, hot],
      seenSeq: 2,
      request: { taskId: 'task-auth', task: 'refresh tokens', files: [], symbols: [], keywords: ['refresh'], role: 'worker', phase: 'implement', failures: [], now: T0 },
      reserve: 40,
      blocks: blocks(),
      minOptionalScore: 0.3,
      compressMinTokens: 96,
      ...(previous ? { previousL2: previous, staleShare: STALE_PREFIX_SHARE } : {}),
    });
    const bigTokens = blocks().tokens(big);
    // The smallest budget at which a fresh pack takes 'hot' whole and 'big' only compressed.
    let budget = 0;
    for (let b = 500; b < 4000 && budget === 0; b += 10) {
      const fresh = startGeneration(input(b)).generation;
      if (fresh.compressed.some((c) => c.itemId === 'big' && c.method === 'extract') && fresh.included.some((e) => e.item.id === 'hot')) budget = b;
    }
    expect(budget).toBeGreaterThan(0);
    const shown = { item: big, layer: 'L2' as const, tokens: bigTokens, score: 0.5, tier: 2 as const, why: 'tier 2' };
    const g = startGeneration(input(budget, [shown])).generation;
    const kept = g.included.find((e) => e.item.id === 'big')!;
    expect(kept.item.content).toBe(big.content);
    expect(kept.why).toMatch(/kept in place at the rebuild/);
    expect(g.included.filter((e) => e.layer === 'L2')[0]?.item.id).toBe('big');
    expect(g.compressed.map((c) => c.itemId)).not.toContain('big');
    // Without a previous L2 (or at another boundary) the fresh pack's choice stands.
    expect(startGeneration(input(budget, undefined)).generation.included.find((e) => e.item.id === 'big')?.item.content).not.toBe(big.content);
  });

  it('[rebuild-keeps-prefix] [refresh-misses-dynamic] a budget rebuild keeps L1 byte for byte: a task item that arrived during the generation stays in L2 until a manual rebuild moves it', () => {
    const { engine } = newEngine();
    engine.registerAgent(identity({ budget: 3000 }), 'variable');
    for (const i of taskItems()) engine.addItem(i);
    const first = engine.build('worker-1', { phase: 'implement' });
    engine.addItem(item({ id: 'late-task', kind: 'task', class: 'task_state', source: 'user_requirement', title: 'User input', content: 'Also rotate the family id when a token is reused.' }));
    const appended = engine.build('worker-1', { phase: 'implement' });
    expect(appended.started).toBe(false);
    expect(appended.generation.included.find((e) => e.item.id === 'late-task')?.layer).toBe('L2');
    let rebuilt: ReturnType<typeof engine.build> | undefined;
    for (let k = 0; k < 60 && !rebuilt; k++) {
      engine.addItem(item({ id: `f${k}`, kind: 'finding', class: 'finding', relevance: 0.3 + k * 0.01, content: `finding ${k} about the refresh token store `.repeat(6) }));
      const r = engine.build('worker-1', { phase: 'implement' });
      if (r.started) rebuilt = r;
    }
    expect(rebuilt?.generation.boundary.reason).toMatch(/^budget reached/);
    expect(rebuilt!.prompt.layers.L1).toBe(first.prompt.layers.L1);
    const late = rebuilt!.generation.included.find((e) => e.item.id === 'late-task')!;
    expect(late.layer).toBe('L2');
    expect(late.why).toMatch(/in L2 until the next refresh/);
    const manual = engine.rebuild('worker-1');
    expect(manual.generation.included.find((e) => e.item.id === 'late-task')?.layer).toBe('L1');
    expect(manual.prompt.layers.L1).toContain('Also rotate the family id');
  });

  it('[rebuild-keeps-prefix] a manual rebuild keeps only what the fresh pack takes (nothing stale)', () => {
    const { engine } = newEngine();
    engine.registerAgent(identity({ budget: 3000 }), 'variable');
    for (const i of taskItems()) engine.addItem(i);
    for (let k = 0; k < 12; k++) engine.addItem(item({ id: `f${k}`, kind: 'finding', class: 'finding', content: `finding ${k} about the refresh token store `.repeat(6) }));
    engine.build('worker-1', { phase: 'implement' });
    const r = engine.rebuild('worker-1');
    expect(r.generation.included.some((e) => e.why.includes('kept in place'))).toBe(false);
  });

  it('[rebuild-keeps-prefix] a refresh reorders fully', () => {
    const { engine } = withAppended();
    expect(engine.refresh('worker-1', 'test').result.generation.included.map((e) => e.item.id)).toEqual(['c', 'b', 'a']);
  });
});
