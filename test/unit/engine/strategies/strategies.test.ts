import { generationTokens } from '../../../../engine/generations/Generation';
import { describe, expect, it } from 'vitest';
import type { AgentRole } from '../../../../engine/contract';
import type { ContextItem } from '../../../../engine/items/ContextItem';
import { createItem, type ItemInput } from '../../../../engine/items/createItem';
import { strategies, strategyNames } from '../../../../engine/strategies/strategies';
import type { StrategyContext, StrategyName } from '../../../../engine/strategies/Strategy';
import { identity, item, newEngine, T0, taskItems } from '../../../support/engineFixtures';
import { CLASSES } from '../../../support/enginePools';

const mk = (over: Partial<ItemInput> = {}): ContextItem =>
  createItem({ id: 'x', kind: 'note', class: 'finding', content: 'c', source: 'worker_finding', agentId: 'a', taskId: 'task-auth', at: T0, ...over });
const ctx = (over: Partial<StrategyContext> = {}): StrategyContext => ({ role: 'worker', phase: 'implement', taskId: 'task-auth', ...over });

function engineFor(strategy: StrategyName, over: { role?: AgentRole; budget?: number; dependencyTaskIds?: string[] } = {}) {
  const { engine, clock } = newEngine();
  engine.registerAgent(identity({ role: over.role ?? 'worker', budget: over.budget ?? 8000, scope: over.dependencyTaskIds ? { dependencyTaskIds: over.dependencyTaskIds } : {} }), strategy);
  for (const i of taskItems()) engine.addItem(i);
  return { engine, clock };
}
const REQ = { phase: 'implement', files: ['src/auth/store.ts'], keywords: ['refresh', 'token'] };
const relevant = { files: ['src/auth/store.ts'], confidence: 1, relevance: 1, content: 'refresh token saveToken() src/auth/store.ts' };
const ids = (g: { included: { item: { id: string } }[] }) => g.included.map((e) => e.item.id);
const reason = (g: { dropped: { item: { id: string }; reason: string }[] }, id: string) => g.dropped.find((d) => d.item.id === id)?.reason;

describe('the strategy table', () => {
  it.each<[StrategyName, number, number, 'score' | 'recent']>([
    ['variable', 1, 0.6, 'score'],
    ['full_history', 1, 0.9, 'recent'],
    ['summary', 1, 0.6, 'score'],
    ['aggressive_refresh', 0.6, 0.6, 'score'],
    ['role_optimized', 1, 0.6, 'score'],
  ])('[strategy-variable] [strategy-full-history] [strategy-summary] [strategy-aggressive] [strategy-role] %s: budget x%d, packs %d, order %s', (name, budgetFactor, packRatio, order) => {
    expect(strategies[name]).toMatchObject({ name, budgetFactor, packRatio, order });
  });

  it('[strategy-variable] variable is the default', () => {
    const { engine } = newEngine();
    engine.registerAgent(identity());
    expect(engine.build('worker-1', { phase: 'x' }).generation.strategy).toBe('variable');
    expect(strategyNames).toEqual(['variable', 'full_history', 'summary', 'aggressive_refresh', 'role_optimized']);
  });
});

describe('[raw-history-observability] raw history', () => {
  it.each(strategyNames.map((s) => [s, s === 'full_history'] as const))('[raw-history-observability] %s packs relevant raw history: %s', (strategy, packs) => {
    const { engine } = engineFor(strategy);
    engine.addItem(item({ id: 'hist', kind: 'transcript', class: 'raw_history', ...relevant, phase: 'implement' }));
    const g = engine.build('worker-1', REQ).generation;
    expect(ids(g).includes('hist')).toBe(packs);
    if (!packs) expect(reason(g, 'hist')).toMatch(new RegExp(`^strategy ${strategy}: `));
  });

  it('[raw-history-observability] [strategy-variable] the agent\'s own transcript is not appended under variable either, but stays observable', () => {
    const { engine } = engineFor('variable');
    engine.build('worker-1', REQ);
    engine.addItem(item({ id: 'my-log', kind: 'transcript', class: 'raw_history', ...relevant }));
    const g = engine.build('worker-1', REQ).generation;
    expect(ids(g)).not.toContain('my-log');
    expect(reason(g, 'my-log')).toBe('strategy variable: raw history is for observability only');
    expect(engine.item('my-log').content).toBe(relevant.content);
    engine.refresh('worker-1', 'test');
    expect(engine.archived().map((i) => i.id)).toContain('my-log');
  });
});

describe('[strategy-variable] variable', () => {
  it.each(CLASSES.map((c) => [c, c === 'raw_history' ? 'strategy variable: raw history is for observability only' : undefined] as const))('[strategy-variable] class %s: %s', (cls, why) => {
    expect(strategies.variable.exclude(mk({ class: cls }), ctx())).toBe(why);
  });

  it('[strategy-variable] packs by class tier and then score, into at most 60% of the budget', () => {
    const { engine } = engineFor('variable', { budget: 3000 });
    // Equal sizes; only confidence (a score factor) differs, so the score decides who enters.
    for (let n = 0; n < 40; n++) engine.addItem(item({ id: `code-${n}`, kind: 'code', class: 'finding', content: `code ${String(n).padStart(2, '0')} `.repeat(30), confidence: n / 40 }));
    engine.addItem(item({ id: 'arch', kind: 'report', class: 'finding', source: 'parent_report', content: 'report '.repeat(30), confidence: 0 }));
    const g = engine.build('worker-1', REQ).generation;
    expect(generationTokens(g)).toBeLessThanOrEqual(3000 * 0.6);
    expect(generationTokens(g)).toBeGreaterThan(3000 * 0.4);
    const inCode = g.included.filter((e) => e.item.id.startsWith('code-'));
    const outCode = g.dropped.filter((d) => d.item.id.startsWith('code-'));
    expect(inCode.length).toBeGreaterThan(3);
    expect(outCode.length).toBeGreaterThan(3);
    const worstIn = Math.min(...inCode.map((e) => e.item.provenance.confidence));
    for (const d of outCode) expect(d.item.provenance.confidence).toBeLessThan(worstIn);
    // Tier 3 comes after every tier-2 block, whatever its size: here it does not fit any more.
    expect(reason(g, 'arch')).toMatch(/^budget: /);
  });
});

describe('[strategy-full-history] full_history', () => {
  it('[strategy-full-history] keeps the newest items that fit, raw history and irrelevant ones included, rendered oldest first', () => {
    const { engine } = engineFor('full_history', { budget: 3000 });
    for (let n = 0; n < 40; n++) {
      engine.addItem(item({ id: `t${String(n).padStart(2, '0')}`, kind: n % 2 ? 'transcript' : 'tool_output', class: n % 2 ? 'raw_history' : 'ephemeral', content: `turn ${n}: unrelated chatter `.repeat(8), files: [], symbols: [], taskId: 'x', confidence: 0, at: T0 - (40 - n) * 60_000 }));
    }
    const g = engine.build('worker-1', REQ).generation;
    const turns = g.included.filter((e) => e.item.id.startsWith('t')).map((e) => e.item.id);
    expect(turns.length).toBeGreaterThan(5);
    expect(turns.length).toBeLessThan(40);
    // The newest ones, in time order.
    const expected = Array.from({ length: 40 }, (_, n) => `t${String(n).padStart(2, '0')}`).slice(40 - turns.length);
    expect(turns).toEqual(expected);
    expect(turns.some((id) => Number(id.slice(1)) % 2 === 1)).toBe(true);
    expect(g.dropped.filter((d) => d.item.id.startsWith('t')).every((d) => d.reason.startsWith('budget: '))).toBe(true);
    expect(generationTokens(g)).toBeLessThanOrEqual(3000 * 0.9);
    expect(generationTokens(g)).toBeGreaterThan(3000 * 0.75);
    expect(strategies.full_history.exclude(mk({ class: 'raw_history' }), ctx())).toBeUndefined();
  });
});

describe('[strategy-summary] summary', () => {
  it.each<[Partial<ItemInput>, string | undefined]>([
    [{ class: 'task_state' }, undefined],
    [{ class: 'finding' }, undefined],
    [{ class: 'ephemeral', kind: 'report' }, undefined],
    [{ class: 'ephemeral' }, 'strategy summary: keeps task state, findings and reports only (ephemeral)'],
    [{ class: 'project_memory' }, 'strategy summary: keeps task state, findings and reports only (project_memory)'],
    [{ class: 'raw_history' }, 'strategy summary: keeps task state, findings and reports only (raw_history)'],
  ])('[strategy-summary] %j -> %s', (over, why) => {
    expect(strategies.summary.exclude(mk(over), ctx())).toBe(why);
  });

  it('[strategy-summary] in a build only task state, findings and reports remain, and pinned items still enter', () => {
    const { engine } = engineFor('summary');
    engine.addItem(item({ id: 'finding', kind: 'finding', class: 'finding', ...relevant }));
    engine.addItem(item({ id: 'report', kind: 'report', class: 'ephemeral', source: 'parent_report', ...relevant }));
    engine.addItem(item({ id: 'grep', kind: 'tool_output', class: 'ephemeral', ...relevant }));
    engine.addItem(item({ id: 'memory', kind: 'architecture', class: 'project_memory', ...relevant }));
    engine.addItem(item({ id: 'pinned-grep', kind: 'tool_output', class: 'ephemeral', pinned: true, content: 'pinned grep' }));
    const g = engine.build('worker-1', REQ).generation;
    expect(ids(g).sort()).toEqual(['acceptance', 'constraint-1', 'finding', 'objective', 'pinned-grep', 'report']);
    expect(reason(g, 'grep')).toMatch(/^strategy summary: /);
    expect(reason(g, 'memory')).toMatch(/^strategy summary: /);
  });
});

describe('[strategy-aggressive] aggressive_refresh', () => {
  it.each<[Partial<ItemInput>, string | undefined]>([
    [{ phase: 'implement' }, undefined],
    [{}, undefined],
    [{ phase: 'explore' }, 'strategy aggressive_refresh: material of phase explore, current phase implement'],
    [{ phase: 'explore', pinned: true }, undefined],
    [{ phase: 'explore', mandatory: true }, undefined],
    [{ class: 'raw_history' }, 'strategy aggressive_refresh: raw history left out'],
  ])('[strategy-aggressive] %j -> %s', (over, why) => {
    expect(strategies.aggressive_refresh.exclude(mk(over), ctx())).toBe(why);
  });

  it('[strategy-aggressive] works in 60% of the budget and leaves other phases out', () => {
    const { engine } = engineFor('aggressive_refresh', { budget: 5000 });
    engine.addItem(item({ id: 'now', kind: 'code', class: 'finding', phase: 'implement', ...relevant }));
    engine.addItem(item({ id: 'then', kind: 'code', class: 'finding', phase: 'explore', ...relevant }));
    for (let n = 0; n < 60; n++) engine.addItem(item({ id: `code-${n}`, kind: 'code', class: 'finding', phase: 'implement', content: `code ${n} `.repeat(30) }));
    const g = engine.build('worker-1', REQ).generation;
    expect(g.budget).toBe(3000);
    expect(generationTokens(g)).toBeLessThanOrEqual(3000 * 0.6);
    expect(ids(g)).toContain('now');
    expect(reason(g, 'then')).toBe('strategy aggressive_refresh: material of phase explore, current phase implement');
  });
});

describe('[strategy-role] role_optimized', () => {
  it.each<[AgentRole, Partial<ItemInput>, Partial<StrategyContext>, string | undefined]>([
    ['primary', { kind: 'tool_output' }, {}, 'strategy role_optimized: the primary omits raw code and tool dumps'],
    ['primary', { kind: 'code', source: 'repository_source' }, {}, 'strategy role_optimized: the primary omits raw code and tool dumps'],
    ['primary', { kind: 'code', source: 'worker_finding' }, {}, undefined],
    ['primary', { kind: 'report', taskId: 'elsewhere' }, {}, undefined],
    ['worker', { kind: 'tool_output' }, {}, undefined],
    ['worker', { kind: 'code', source: 'repository_source' }, {}, undefined],
    ['probe', { kind: 'report', taskId: 'elsewhere' }, {}, 'strategy role_optimized: probes omit reports unrelated to their task'],
    ['probe', { kind: 'report', taskId: 'task-auth' }, {}, undefined],
    ['probe', { kind: 'report', taskId: 'task-db' }, { dependencyTaskIds: ['task-db'] }, undefined],
    ['probe', { kind: 'tool_output' }, {}, undefined],
    ['reviewer', { kind: 'report', taskId: 'elsewhere' }, {}, undefined],
    ['worker', { class: 'raw_history' }, {}, 'strategy role_optimized: raw history left out'],
  ])('[strategy-role] %s, %j -> %s', (role, over, c, why) => {
    expect(strategies.role_optimized.exclude(mk(over), ctx({ role, ...c }))).toBe(why);
  });

  it('[strategy-role] a primary gets no code dumps; a probe gets only related reports', () => {
    const add = (engine: ReturnType<typeof newEngine>['engine']) => {
      engine.addItem(item({ id: 'dump', kind: 'code', class: 'ephemeral', source: 'repository_source', ...relevant }));
      engine.addItem(item({ id: 'tool', kind: 'tool_output', class: 'ephemeral', ...relevant }));
      engine.addItem(item({ id: 'report-mine', kind: 'report', class: 'finding', source: 'parent_report', ...relevant }));
      engine.addItem(item({ id: 'report-dep', kind: 'report', class: 'finding', source: 'parent_report', ...relevant, taskId: 'task-db' }));
      engine.addItem(item({ id: 'report-other', kind: 'report', class: 'finding', source: 'parent_report', ...relevant, taskId: 'task-ui' }));
    };
    const primary = engineFor('role_optimized', { role: 'primary' });
    add(primary.engine);
    const p = primary.engine.build('worker-1', REQ).generation;
    expect(ids(p)).toEqual(expect.arrayContaining(['report-mine', 'report-dep', 'report-other']));
    expect(reason(p, 'dump')).toBe('strategy role_optimized: the primary omits raw code and tool dumps');
    expect(reason(p, 'tool')).toBe('strategy role_optimized: the primary omits raw code and tool dumps');

    const probe = engineFor('role_optimized', { role: 'probe', dependencyTaskIds: ['task-auth', 'task-db'] });
    add(probe.engine);
    const q = probe.engine.build('worker-1', REQ).generation;
    expect(ids(q)).toEqual(expect.arrayContaining(['dump', 'tool', 'report-mine', 'report-dep']));
    expect(ids(q)).not.toContain('report-other');
    // The scope's dependency rule speaks first for parent reports.
    expect(reason(q, 'report-other')).toMatch(/^scope: report of task task-ui/);

    const worker = engineFor('variable');
    add(worker.engine);
    expect(ids(worker.engine.build('worker-1', REQ).generation)).toEqual(expect.arrayContaining(['dump', 'report-other']));
  });

  it('[strategy-role] a probe without a dependency scope omits unrelated reports by the strategy', () => {
    const { engine } = engineFor('role_optimized', { role: 'probe' });
    engine.addItem(item({ id: 'report-other', kind: 'report', class: 'finding', source: 'parent_report', ...relevant, taskId: 'task-ui' }));
    engine.addItem(item({ id: 'report-mine', kind: 'report', class: 'finding', source: 'parent_report', ...relevant }));
    const g = engine.build('worker-1', REQ).generation;
    expect(ids(g)).toContain('report-mine');
    expect(reason(g, 'report-other')).toBe('strategy role_optimized: probes omit reports unrelated to their task');
  });
});
