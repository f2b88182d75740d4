import { describe, expect, it } from 'vitest';
import { agentsInitialState, reduceAgents, type AgentsState } from '../../../../../renderer/store/agents/agentsSlice';
import { agentUpdated, logEvent, makeAgent, makeDetail, makeLogEntry } from '../../fixtures';

const holding = (...agents: ReturnType<typeof makeAgent>[]): AgentsState => ({
  byId: Object.fromEntries(agents.map((a) => [a.agentId, a])),
  order: agents.map((a) => a.agentId),
});

describe('reduceAgents', () => {
  it('a snapshot sets order (host order) and byId', () => {
    const agents = [makeAgent('p'), makeAgent('b', { parent: 'p' }), makeAgent('a', { parent: 'p' })];
    const next = reduceAgents(agentsInitialState, { type: 'agents.snapshot', agents });
    expect(next.order).toEqual(['p', 'b', 'a']);
    expect(next.byId).toEqual({ p: agents[0], b: agents[1], a: agents[2] });
  });

  it('a snapshot does not roll back an agent whose held revision is newer', () => {
    const held = makeAgent('a', { revision: 7, generation: 4 });
    const stale = makeAgent('a', { revision: 5, generation: 3 });
    const fresh = makeAgent('b', { revision: 2 });
    const next = reduceAgents(holding(held), { type: 'agents.snapshot', agents: [stale, fresh] });
    expect(next.byId.a).toBe(held);
    expect(next.byId.b).toBe(fresh);
    expect(next.order).toEqual(['a', 'b']);
  });

  it.each([
    { case: 'newer revision', incoming: 6, applied: true },
    { case: 'same revision', incoming: 5, applied: true },
    { case: 'older revision', incoming: 4, applied: false },
  ])('an agent.updated event with a $case is applied: $applied', ({ incoming, applied }) => {
    const state = holding(makeAgent('a', { revision: 5, status: 'running' }));
    const update = makeAgent('a', { revision: incoming, status: 'done' });
    const next = reduceAgents(state, { type: 'event', event: agentUpdated(update) });
    if (applied) {
      expect(next.byId.a).toBe(update);
      expect(next.order).toBe(state.order);
    } else {
      expect(next).toBe(state);
      expect(next.byId.a?.status).toBe('running');
    }
  });

  it('an event for an unknown agent appends it to order', () => {
    const state = holding(makeAgent('p'), makeAgent('c', { parent: 'p' }));
    const spawned = makeAgent('b', { parent: 'p' });
    const next = reduceAgents(state, { type: 'event', event: agentUpdated(spawned) });
    expect(next.order).toEqual(['p', 'c', 'b']);
    expect(next.byId.b).toBe(spawned);
    expect(state.order).toEqual(['p', 'c']);
  });

  it('agent.detail upserts its agent under the same revision rule', () => {
    const state = holding(makeAgent('a', { revision: 3 }));
    expect(reduceAgents(state, { type: 'agent.detail', detail: makeDetail(makeAgent('a', { revision: 2 })) })).toBe(state);
    const newer = makeAgent('a', { revision: 4 });
    expect(reduceAgents(state, { type: 'agent.detail', detail: makeDetail(newer) }).byId.a).toBe(newer);
  });

  it.each([
    { type: 'event' as const, event: logEvent(makeLogEntry(1)) },
    { type: 'tree.filter' as const, text: 'x' },
    { type: 'agent.select' as const, agentId: 'a' },
  ])('ignores $type actions that are not about agents', (action) => {
    const state = holding(makeAgent('a'));
    expect(reduceAgents(state, action)).toBe(state);
  });
});
