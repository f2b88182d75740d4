import { describe, expect, it } from 'vitest';
import type { AgentDto, UsageTotals } from '../../../../../engine/contract';
import { reduce, type RootState } from '../../../../../renderer/store/reduce';
import { selectChildren, selectSelectedAgent, selectStatusCounts, selectTotals, selectTreeRows } from '../../../../../renderer/store/agents/agentsSelectors';
import { agentUpdated, demoTree, makeAgent, stateWithAgents } from '../../fixtures';

/** Rows as `id@depth`, the shape these tests compare. */
const rows = (s: RootState) => selectTreeRows(s).map((r) => `${r.agent.agentId}@${r.depth}`);

describe('selectTreeRows', () => {
  it('flattens depth-first with depths, siblings sorted by id whatever the host order', () => {
    expect(rows(stateWithAgents(demoTree()))).toEqual(['primary@0', 'auth-1@1', 'probe-1@2', 'auth-2@1', 'review@1']);
  });

  it('marks which rows have children', () => {
    const hasChildren = Object.fromEntries(selectTreeRows(stateWithAgents(demoTree())).map((r) => [r.agent.agentId, r.hasChildren]));
    expect(hasChildren).toEqual({ primary: true, 'auth-1': true, 'probe-1': false, 'auth-2': false, review: false });
  });

  it('an agent whose parent is unknown is a root, sorted among the roots', () => {
    const agents = [...demoTree(), makeAgent('orphan', { parent: 'gone' }), makeAgent('orphan-kid', { parent: 'orphan' })];
    expect(rows(stateWithAgents(agents))).toEqual(['orphan@0', 'orphan-kid@1', 'primary@0', 'auth-1@1', 'probe-1@2', 'auth-2@1', 'review@1']);
  });

  it('a child listed before its parent still nests under it', () => {
    const agents = [makeAgent('kid', { parent: 'root' }), makeAgent('root')];
    expect(rows(stateWithAgents(agents))).toEqual(['root@0', 'kid@1']);
  });

  it.each([
    { collapsed: ['auth-1'], expected: ['primary@0', 'auth-1@1', 'auth-2@1', 'review@1'] },
    { collapsed: ['primary'], expected: ['primary@0'] },
    { collapsed: ['primary', 'auth-1'], expected: ['primary@0'] },
    { collapsed: ['probe-1'], expected: ['primary@0', 'auth-1@1', 'probe-1@2', 'auth-2@1', 'review@1'] },
  ])('collapsing $collapsed hides their descendants', ({ collapsed, expected }) => {
    const s = stateWithAgents(demoTree(), { collapsed: Object.fromEntries(collapsed.map((id) => [id, true as const])) });
    expect(rows(s)).toEqual(expected);
    for (const r of selectTreeRows(s)) expect(r.collapsed).toBe(collapsed.includes(r.agent.agentId));
  });

  it.each([
    { filter: 'probe-1', field: 'id', expected: ['primary@0', 'auth-1@1', 'probe-1@2'] },
    { filter: 'reviewer', field: 'role', expected: ['primary@0', 'review@1'] },
    { filter: 'oauth', field: 'task, case-insensitive', expected: ['primary@0', 'auth-1@1'] },
    { filter: 'REFRESHING', field: 'status, case-insensitive', expected: ['primary@0', 'auth-2@1'] },
    { filter: 'haiku', field: 'model, case-insensitive', expected: ['primary@0', 'auth-1@1', 'probe-1@2'] },
    { filter: '  waiting  ', field: 'status, trimmed', expected: ['primary@0', 'review@1'] },
    { filter: 'primary', field: 'a parent only (children do not come along)', expected: ['primary@0'] },
    { filter: 'no such agent', field: 'nothing', expected: [] },
  ])('filter "$filter" on $field keeps matches and their ancestors', ({ filter, expected }) => {
    expect(rows(stateWithAgents(demoTree(), { filter }))).toEqual(expected);
  });

  it('while filtering, a row is expandable only when a child is visible', () => {
    const s = stateWithAgents([makeAgent('p'), makeAgent('c', { parent: 'p', task: 'other' }), makeAgent('q', { task: 'needle' })], { filter: 'p' });
    const rows = selectTreeRows(s);
    expect(rows.map((r) => [r.agent.agentId, r.hasChildren])).toEqual([['p', false]]);
  });

  it('orders ids by code units in the tree and in children lists alike', () => {
    const s = stateWithAgents([makeAgent('root'), makeAgent('b', { parent: 'root' }), makeAgent('B', { parent: 'root' }), makeAgent('a', { parent: 'root' })]);
    expect(selectTreeRows(s).map((r) => r.agent.agentId)).toEqual(['root', 'B', 'a', 'b']);
    expect(selectChildren(s, 'root').map((a) => a.agentId)).toEqual(['B', 'a', 'b']);
  });

  it('a filter ignores collapse', () => {
    const s = stateWithAgents(demoTree(), { filter: 'probe', collapsed: { primary: true, 'auth-1': true } });
    expect(rows(s)).toEqual(['primary@0', 'auth-1@1', 'probe-1@2']);
    expect(selectTreeRows(s).every((r) => !r.collapsed)).toBe(true);
  });

  it('a blank filter shows the whole tree', () => {
    expect(rows(stateWithAgents(demoTree(), { filter: '   ' }))).toHaveLength(5);
  });

  describe('memoization', () => {
    const base = stateWithAgents(demoTree());

    it('returns the same array for the same inputs', () => {
      const first = selectTreeRows(base);
      expect(selectTreeRows(base)).toBe(first);
      expect(selectTreeRows({ ...base })).toBe(first);
    });

    it('selecting an agent does not rebuild the rows', () => {
      const first = selectTreeRows(base);
      expect(selectTreeRows(reduce(base, { type: 'agent.select', agentId: 'auth-1' }))).toBe(first);
    });

    it.each([
      { change: 'an agent update', action: { type: 'event' as const, event: agentUpdated(makeAgent('review', { parent: 'primary', revision: 9 })) } },
      { change: 'a collapse', action: { type: 'tree.toggle' as const, agentId: 'auth-1' } },
      { change: 'a filter', action: { type: 'tree.filter' as const, text: 'auth' } },
    ])('returns a new array after $change', ({ action }) => {
      const first = selectTreeRows(base);
      const next = selectTreeRows(reduce(base, action));
      expect(next).not.toBe(first);
      expect(selectTreeRows(base)).not.toBe(next);
    });
  });
});

describe('selectTotals', () => {
  const usage = (input: number, cacheRead: number, cacheWrite: number, output = 0): UsageTotals => ({ input, cacheRead, cacheWrite, output });
  const withUsage = (...u: UsageTotals[]): AgentDto[] => u.map((x, i) => makeAgent(`a${i}`, { usage: x }));

  it.each([
    { case: 'no agents', agents: [], hitRate: 0 },
    { case: 'agents without usage', agents: withUsage(usage(0, 0, 0), usage(0, 0, 0, 50)), hitRate: 0 },
    { case: 'one agent', agents: withUsage(usage(100, 300, 100)), hitRate: 0.6 },
    // Pooled over agents (400 / 1100), not the mean of per-agent rates ((0.6 + 1/6) / 2).
    { case: 'two agents, pooled', agents: withUsage(usage(100, 300, 100, 999), usage(500, 100, 0, 999)), hitRate: 400 / 1100 },
    { case: 'everything read from cache', agents: withUsage(usage(0, 10, 0)), hitRate: 1 },
  ])('hit rate with $case is $hitRate', ({ agents, hitRate }) => {
    expect(selectTotals(stateWithAgents(agents)).hitRate).toBeCloseTo(hitRate, 12);
  });

  it('counts agents and running agents', () => {
    expect(selectTotals(stateWithAgents(demoTree()))).toMatchObject({ agents: 5, running: 3 });
  });
});

describe('selectSelectedAgent, selectChildren', () => {
  it('the selected agent, or undefined when none or unknown', () => {
    const agents = demoTree();
    expect(selectSelectedAgent(stateWithAgents(agents, { selectedAgentId: 'auth-2' }))).toBe(agents[3]);
    expect(selectSelectedAgent(stateWithAgents(agents))).toBeUndefined();
    expect(selectSelectedAgent(stateWithAgents(agents, { selectedAgentId: 'gone' }))).toBeUndefined();
  });

  it('direct children only, sorted by id', () => {
    const s = stateWithAgents(demoTree());
    expect(selectChildren(s, 'primary').map((a) => a.agentId)).toEqual(['auth-1', 'auth-2', 'review']);
    expect(selectChildren(s, 'probe-1')).toEqual([]);
  });
});

describe('selectStatusCounts', () => {
  it('counts the agents of each status in the order asked, and keeps its array until the agents change', () => {
    const select = selectStatusCounts(['running', 'done', 'failed']);
    const s = stateWithAgents([makeAgent('a', { status: 'running' }), makeAgent('b', { status: 'done' }), makeAgent('c', { status: 'running' }), makeAgent('d', { status: 'waiting' })]);
    const counts = select(s);
    expect(counts).toEqual([2, 1, 0]);
    expect(select(reduce(s, { type: 'tree.filter', text: 'x' }))).toBe(counts);
    const next = reduce(s, { type: 'event', event: agentUpdated(makeAgent('d', { status: 'failed', revision: 2 })) });
    expect(select(next)).toEqual([2, 1, 1]);
  });
});

describe('selectTreeRows with a status filter', () => {
  it('the tree filters by status AND text, keeping ancestors of matches', () => {
    const rows = (ui: Partial<RootState['ui']>) => selectTreeRows(stateWithAgents(demoTree(), ui)).map((r) => r.agent.agentId);
    expect(rows({ statusFilter: ['waiting'] })).toEqual(['primary', 'review']);
    expect(rows({ statusFilter: ['running', 'refreshing'] })).toEqual(['primary', 'auth-1', 'probe-1', 'auth-2']);
    expect(rows({ statusFilter: ['running'], filter: 'probe' })).toEqual(['primary', 'auth-1', 'probe-1']);
    expect(rows({ statusFilter: ['waiting'], filter: 'probe' })).toEqual([]);
    expect(rows({ statusFilter: [] })).toHaveLength(5);
  });
});
