import { describe, expect, it } from 'vitest';
import type { Action } from '../../../../renderer/store/actions';
import { reduce, type RootState } from '../../../../renderer/store/reduce';
import { eventsInitialState, reduceEvents } from '../../../../renderer/store/events/eventsSlice';
import { agentUpdated, logEvent, makeAgent, makeDetail, makeLogEntry, stateWithAgents } from '../fixtures';

const held: RootState = {
  ...stateWithAgents([makeAgent('a', { revision: 5 })]),
  log: { entries: [makeLogEntry(1), makeLogEntry(2)] },
  // The event log holds the same lines.
  events: reduceEvents(eventsInitialState, { type: 'agent.detail', detail: makeDetail(makeAgent('a', { revision: 1 }), [makeLogEntry(1), makeLogEntry(2)]) }),
};

describe('reduce', () => {
  it.each<{ case: string; action: Action }>([
    { case: 'a stale agent.updated event', action: { type: 'event', event: agentUpdated(makeAgent('a', { revision: 4 })) } },
    { case: 'a log event it already holds', action: { type: 'event', event: logEvent(makeLogEntry(2)) } },
    { case: 'a stale detail with a known backlog', action: { type: 'agent.detail', detail: makeDetail(makeAgent('a', { revision: 1 }), [makeLogEntry(1)]) } },
  ])('returns the identical state object for $case', ({ action }) => {
    expect(reduce(held, action)).toBe(held);
  });

  it('a change in one slice keeps the identity of the others', () => {
    const next = reduce(held, { type: 'event', event: logEvent(makeLogEntry(3)) });
    expect(next).not.toBe(held);
    expect(next.log.entries.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(next.agents).toBe(held.agents);
    expect(next.ui).toBe(held.ui);
    expect(next.connection).toBe(held.connection);
  });

  it('an agent detail reaches both the agents and the log slice', () => {
    const agent = makeAgent('a', { revision: 6 });
    const next = reduce(held, { type: 'agent.detail', detail: makeDetail(agent, [makeLogEntry(3, { agentId: 'a' })]) });
    expect(next.agents.byId.a).toBe(agent);
    expect(next.log.entries.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(next.ui).toBe(held.ui);
  });
});
