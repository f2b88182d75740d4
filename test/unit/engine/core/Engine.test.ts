import { describe, expect, it } from 'vitest';
import { ContextLimitError } from '../../../../engine/refresh/ContextLimitError';
import type { EngineEvent } from '../../../../engine/EngineEvent';
import { RECENT_FULL_GENERATIONS, RECENT_GENERATIONS } from '../../../../engine/generations/boundedHistory';
import { DROPPED_KEPT, generationOverflow, generationTokens } from '../../../../engine/generations/Generation';
import { othersCeiling } from '../../../../engine/generations/appendToGeneration';
import { identity, item, newEngine, T0, taskItems } from '../../../support/engineFixtures';

function setup(budget = 4000) {
  const { engine, clock } = newEngine();
  engine.registerAgent(identity({ budget }));
  for (const i of taskItems()) engine.addItem(i);
  return { engine, clock };
}

describe('Engine', () => {
  it('[generation-snapshot] the first build starts generation 1 with layers, entries and reasons', () => {
    const { engine } = setup();
    engine.addItem(item({ id: 'grep', kind: 'tool_output', class: 'ephemeral', content: 'README.md:3: see docs', files: ['docs/README.md'], symbols: [], source: 'repository_source', agentId: 'other', at: T0 - 6 * 3600_000 }));
    const r = engine.build('worker-1', { phase: 'implement', files: ['src/auth/store.ts'] });
    expect(r.started).toBe(true);
    const g = r.generation;
    expect(g).toMatchObject({ agentId: 'worker-1', number: 1, phase: 'implement', strategy: 'variable', budget: 4000, boundary: { kind: 'start' } });
    expect(g.included.map((e) => [e.item.id, e.layer])).toEqual([
      ['objective', 'L1'],
      ['acceptance', 'L1'],
      ['constraint-1', 'L1'],
    ]);
    expect(g.dropped).toEqual([expect.objectContaining({ reason: expect.stringMatching(/low relevance/) })]);
    expect(generationTokens(g)).toBe(g.layerTokens.L0 + g.layerTokens.L1 + g.layerTokens.L2 + g.layerTokens.L3);
    expect(r.prompt.static.startsWith(r.prompt.layers.L0)).toBe(true);
    expect(r.text.endsWith('Generation 1 · ' + Math.round((generationTokens(g) / 4000) * 100) + '% of budget · phase implement\n</now>\n')).toBe(true);
  });

  it('[L2-append] [static-stable] builds inside a generation keep the static part and only append to L2', () => {
    const { engine } = setup();
    engine.addItem(item({ id: 'f1' }));
    const a = engine.build('worker-1', { phase: 'implement', files: ['src/auth/store.ts'] });
    engine.addItem(item({ id: 'f2', content: 'rotateRefreshToken() must lock the row in src/auth/refresh.ts' }));
    const b = engine.build('worker-1', { phase: 'implement', files: ['src/auth/store.ts'], input: 'next turn' });
    expect(b.started).toBe(false);
    expect(b.generation.number).toBe(1);
    expect(b.prompt.static).toBe(a.prompt.static);
    expect(b.prompt.layers.L2.startsWith(a.prompt.layers.L2)).toBe(true);
    expect(b.prompt.layers.L2.length).toBeGreaterThan(a.prompt.layers.L2.length);
    expect(b.reuse).toBeGreaterThan(0.8);
  });

  it('[deterministic] the same inputs give byte-identical prompts', () => {
    const run = () => {
      const { engine } = setup();
      for (let i = 0; i < 20; i++) engine.addItem(item({ id: `x${i}`, title: `finding x${i}`, content: `finding ${i} about src/auth/refresh.ts and rotateRefreshToken()` }));
      return engine.build('worker-1', { phase: 'implement', files: ['src/auth/refresh.ts'] }).text;
    };
    expect(run()).toBe(run());
  });

  it('[rebuild-at-budget] [boundary-only-evict] appending past the budget starts a new generation instead', () => {
    const { engine } = setup(1200);
    engine.build('worker-1', { phase: 'implement' });
    let started = 0;
    for (let i = 0; i < 30; i++) {
      engine.addItem(item({ id: `out${i}`, kind: 'tool_output', class: 'ephemeral', content: `output ${i} `.repeat(40) }));
      const r = engine.build('worker-1', { phase: 'implement' });
      expect(generationTokens(r.generation)).toBeLessThanOrEqual(1200);
      if (r.started) {
        started++;
        expect(r.generation.boundary).toEqual({ kind: 'rebuild', reason: expect.stringMatching(/^budget reached/) });
      }
    }
    expect(started).toBeGreaterThan(0);
  });

  it('[optional-waits] [rebuild-at-budget] other agents\' optional material that does not fit waits for the next boundary; the agent\'s own forces it', () => {
    const { engine } = setup(1200);
    engine.build('worker-1', { phase: 'implement' });
    let fill = 0;
    // Fill the generation with the agent's own material up to just under the budget.
    while (generationTokens(engine.build('worker-1', { phase: 'implement' }).generation) < 1050 && fill < 40) {
      engine.addItem(item({ id: `mine${fill}`, kind: 'tool_output', class: 'ephemeral', content: `mine ${fill} `.repeat(20) }));
      fill++;
    }
    const gen = engine.currentGeneration('worker-1');
    for (let i = 0; i < 10; i++) {
      engine.addItem(item({ id: `theirs${i}`, agentId: 'worker-2', kind: 'tool_output', class: 'ephemeral', content: `refresh token grep hit ${i} `.repeat(30), files: ['src/auth/refresh.ts'] }));
      const r = engine.build('worker-1', { phase: 'implement', files: ['src/auth/refresh.ts'] });
      expect(r.started).toBe(false);
      expect(generationTokens(r.generation)).toBeLessThanOrEqual(1200);
    }
    expect(engine.currentGeneration('worker-1')).toBe(gen);
    const waiting = engine.generation('worker-1', gen).dropped.filter((d) => /waits for the next boundary/.test(d.reason));
    expect(waiting.length).toBeGreaterThan(0);
    expect(waiting.every((d) => d.item.provenance.agentId === 'worker-2')).toBe(true);
    // The agent's own new material does force the boundary, and the fresh pack reconsiders what waited.
    engine.addItem(item({ id: 'mine-big', kind: 'tool_output', class: 'ephemeral', content: 'mine big '.repeat(120) }));
    const r = engine.build('worker-1', { phase: 'implement', files: ['src/auth/refresh.ts'] });
    expect(r.started).toBe(true);
    expect(r.generation.boundary).toEqual({ kind: 'rebuild', reason: expect.stringMatching(/^budget reached/) });
  });

  it('[optional-waits] [rebuild-at-budget] other agents\' code reads and failures (tier 2) wait too; another agent\'s constraint (tier 1) forces the boundary', () => {
    const { engine } = setup(1200);
    engine.build('worker-1', { phase: 'implement' });
    for (let fill = 0; generationTokens(engine.build('worker-1', { phase: 'implement' }).generation) < 1050 && fill < 40; fill++) {
      engine.addItem(item({ id: `mine${fill}`, kind: 'tool_output', class: 'ephemeral', content: `mine ${fill} `.repeat(20) }));
    }
    const gen = engine.currentGeneration('worker-1');
    engine.addItem(item({ id: 'their-read', agentId: 'worker-2', kind: 'code', class: 'ephemeral', content: 'export function rotate() {}\n'.repeat(40), files: ['src/auth/refresh.ts'] }));
    engine.addItem(item({ id: 'their-failure', agentId: 'worker-2', kind: 'failure', class: 'task_state', content: 'FAIL test/auth.test.ts rotate twice\n'.repeat(20), files: ['src/auth/refresh.ts'] }));
    const r = engine.build('worker-1', { phase: 'implement', files: ['src/auth/refresh.ts'] });
    expect(r.started).toBe(false);
    expect(engine.currentGeneration('worker-1')).toBe(gen);
    const waiting = r.generation.dropped.filter((d) => /^budget: tier-2 material from worker-2 waits/.test(d.reason)).map((d) => d.item.id);
    expect(waiting.sort()).toEqual(['their-failure', 'their-read']);

    engine.addItem(item({ id: 'their-constraint', agentId: 'worker-2', kind: 'constraint', class: 'task_state', content: 'Never log refresh tokens. '.repeat(30) }));
    const forced = engine.build('worker-1', { phase: 'implement', files: ['src/auth/refresh.ts'] });
    expect(forced.started).toBe(true);
    expect(forced.generation.boundary).toEqual({ kind: 'rebuild', reason: expect.stringMatching(/^budget reached/) });
    expect(forced.generation.included.map((e) => e.item.id)).toContain('their-constraint');
  });

  it('[optional-waits] other agents\' material fills at most half of the headroom above the pack target; the other half stays for the agent\'s own turns', () => {
    const { engine } = setup(4000);
    const first = engine.build('worker-1', { phase: 'implement', files: ['src/auth/refresh.ts'] });
    const ceiling = othersCeiling(4000, 0.6);
    expect(ceiling).toBe(3200);
    for (let i = 0; i < 30; i++) {
      engine.addItem(item({ id: `theirs${i}`, agentId: `worker-${2 + (i % 3)}`, kind: 'code', class: 'ephemeral', content: `export const rotate${i} = () => token;\n`.repeat(12), files: ['src/auth/refresh.ts'] }));
      const r = engine.build('worker-1', { phase: 'implement', files: ['src/auth/refresh.ts'] });
      expect(r.started).toBe(false);
      expect(generationTokens(r.generation)).toBeLessThanOrEqual(ceiling);
    }
    const g = engine.generation('worker-1', first.generation.number);
    expect(g.dropped.some((d) => /^budget: tier-2 material from worker-\d waits/.test(d.reason))).toBe(true);
    // The agent's own turns still append above the ceiling, up to the budget, in the same generation.
    let own = 0;
    for (; own < 20; own++) {
      engine.addItem(item({ id: `mine${own}`, kind: 'tool_output', class: 'ephemeral', content: `mine ${own} `.repeat(30) }));
      const r = engine.build('worker-1', { phase: 'implement', files: ['src/auth/refresh.ts'] });
      if (r.started) break;
      expect(generationTokens(r.generation)).toBeLessThanOrEqual(4000);
    }
    expect(generationTokens(engine.generation('worker-1', first.generation.number))).toBeGreaterThan(ceiling);
    expect(own).toBeGreaterThan(3);
  });

  it('[bounded-history] a generation living through many builds in a busy pool keeps its first DROPPED_KEPT dropped entries and counts the rest', () => {
    const { engine } = setup(1200);
    const first = engine.build('worker-1', { phase: 'implement' });
    for (let b = 0; b < 30; b++) {
      for (let k = 0; k < 50; k++) engine.addItem(item({ id: `noise-${b}-${k}`, agentId: 'worker-2', kind: 'tool_output', class: 'ephemeral', content: `unrelated build log line ${b} ${k} `.repeat(30) }));
      expect(engine.build('worker-1', { phase: 'implement' }).started).toBe(false);
    }
    const g = engine.generation('worker-1', first.generation.number);
    expect(g.droppedTotal).toBeGreaterThanOrEqual(1500);
    expect(g.dropped).toHaveLength(DROPPED_KEPT);
  });

  it('[bounded-history] generations older than the newest RECENT_GENERATIONS release their dropped sample but keep their included entries and counts', () => {
    const { engine } = setup(1200);
    for (let i = 0; i < 40; i++) engine.addItem(item({ id: `bg${i}`, agentId: 'worker-2', kind: 'tool_output', class: 'ephemeral', content: `unrelated ${i} `.repeat(60) }));
    for (let g = 0; g < RECENT_GENERATIONS + 5; g++) engine.rebuild('worker-1', `rebuild ${g}`);
    const all = engine.generations('worker-1');
    expect(all.length).toBeGreaterThan(RECENT_GENERATIONS + 1);
    const old = all[0]!;
    const recent = all.at(-RECENT_GENERATIONS)!;
    expect(old.droppedTotal).toBeGreaterThan(0);
    expect(old.dropped).toEqual([]);
    expect(old.included.length).toBeGreaterThan(0);
    expect(recent.dropped.length).toBe(Math.min(recent.droppedTotal, DROPPED_KEPT));
    expect(recent.dropped.length).toBeGreaterThan(0);
    expect(all.at(-RECENT_GENERATIONS - 1)!.dropped).toEqual([]);
    // Past the newest RECENT_FULL_GENERATIONS, the included entries are released too, with their counts kept.
    for (let g = 0; g < RECENT_FULL_GENERATIONS; g++) engine.rebuild('worker-1', `more ${g}`);
    const first = engine.generation('worker-1', 1);
    expect(first.released?.included).toBeGreaterThan(0);
    expect(first.included).toEqual([]);
    expect(engine.generations('worker-1').at(-1)!.released).toBeUndefined();
    expect(engine.generations('worker-1').at(-1)!.included.length).toBeGreaterThan(0);
  });

  it('[refresh-on-limit] [refresh-pipeline] [refresh-text] a context-limit error refreshes the same agent', () => {
    const { engine } = setup();
    const events: EngineEvent[] = [];
    engine.on((e) => events.push(e));
    engine.build('worker-1', { phase: 'implement' });
    engine.addItem(item({ id: 'log', kind: 'tool_output', class: 'ephemeral', content: 'FAILED tests/refresh.spec.ts: expected 200, got 401\n$ npm test -- refresh' }));
    engine.addItem(item({ id: 'keep', kind: 'finding', class: 'finding' }));
    engine.build('worker-1', { phase: 'implement' });
    expect(engine.maybeRefresh('worker-1', new Error('boom'))).toBeUndefined();
    const r = engine.maybeRefresh('worker-1', new ContextLimitError('prompt is too long', 'anthropic'))!;
    expect(r.from).toBe(1);
    expect(r.to).toBe(2);
    expect(r.text).toBe('Context refreshed · Generation 1 → 2 · Reason: provider context-limit error: prompt is too long');
    expect(r.droppedItems).toEqual(['log']);
    expect(r.persistedFindings).toContain('keep');
    expect(() => engine.item('log')).toThrow(/No item/);
    expect(engine.archived().map((i) => i.id)).toEqual(['log']);
    const carried = engine.item('state:worker-1:g1');
    expect(carried.class).toBe('task_state');
    expect(carried.content).toMatch(/FAILED tests\/refresh\.spec\.ts/);
    expect(engine.stats('worker-1').retries).toBe(1);
    expect(engine.identity('worker-1')).toBe(engine.identity('worker-1'));
    expect(events.some((e) => e.type === 'generation.started' && e.text === r.text)).toBe(true);
  });

  it('[overflow-recorded] [pin-never-clipped] pinned content beyond the budget is kept whole and recorded', () => {
    const { engine } = setup(600);
    const big = engine.addItem(item({ id: 'big', kind: 'constraint', class: 'task_state', content: 'rule '.repeat(800) }));
    engine.pin(big.id);
    const r = engine.build('worker-1', { phase: 'implement' });
    const entry = r.generation.included.find((e) => e.item.id === 'big')!;
    expect(entry.item.content).toBe(big.content);
    expect(generationOverflow(r.generation)).toBe(generationTokens(r.generation) - 600);
    expect(generationOverflow(r.generation)).toBeGreaterThan(0);
  });

  it('[verify-exact] [unverified-stays-unverified] [promote-separate] verify and promote', () => {
    const { engine } = setup();
    const events: EngineEvent[] = [];
    engine.on((e) => events.push(e));
    const a = engine.addItem(item({ id: 'h1', kind: 'note', class: 'ephemeral', source: 'unverified_hypothesis', content: 'same text' }));
    engine.addItem(item({ id: 'h2', kind: 'note', class: 'ephemeral', source: 'unverified_hypothesis', content: 'same text' }));
    expect(a.provenance.verified).toBe(false);
    const promoted = engine.promote('h1', 'pool');
    expect(promoted).toMatchObject({ class: 'finding', kind: 'finding', provenance: { source: 'unverified_hypothesis', verified: false } });
    engine.promote('h1', 'memory');
    expect(events.at(-1)).toMatchObject({ type: 'memory.candidate', item: { id: 'h1', provenance: { verified: false } } });
    engine.verify('h1');
    expect(engine.item('h1').provenance.verified).toBe(true);
    expect(engine.item('h2').provenance.verified).toBe(false);
    expect(engine.item('h1').provenance.source).toBe('unverified_hypothesis');
  });

  it('refuses bad operations with typed errors and changes nothing', () => {
    const { engine } = setup();
    expect(() => engine.addItem(item({ id: 'objective' }))).toThrow(/already in the pool/);
    expect(() => engine.verify('nope')).toThrow(/No item "nope"/);
    expect(() => engine.build('ghost', { phase: 'x' })).toThrow(/No agent "ghost"/);
    expect(() => engine.generation('worker-1', 1)).toThrow(/no generation 1/);
    expect(engine.items()).toHaveLength(3);
  });
});
