import { describe, expect, it } from 'vitest';
import { dropSession, reduceAgents } from '../../../../../renderer/store/agents/agentsSlice';
import { reduce } from '../../../../../renderer/store/reduce';
import { agentUpdated, demoTree, makeAgent, stateWithAgents } from '../../fixtures';
import { makeLive, sessionDetached } from '../../sessionFixtures';

/** Strata's demo tree plus two attached sessions: ses-1 (main thread and a sidechain) and ses-2. */
const mixed = () => [
  ...demoTree(),
  makeAgent('ses-1', { role: 'primary', sessionId: 'ses-1' }),
  makeAgent('ses-1/agent-a1', { parent: 'ses-1', sessionId: 'ses-1' }),
  makeAgent('ses-2', { role: 'primary', sessionId: 'ses-2' }),
];

describe('session.detached in the agents slice', () => {
  it('drops every agent of the detached session and keeps the others in their order', () => {
    const s = stateWithAgents(mixed()).agents;
    const next = reduceAgents(s, { type: 'event', event: sessionDetached('ses-1') });
    expect(next.order).toEqual(['primary', 'review', 'auth-1', 'auth-2', 'probe-1', 'ses-2']);
    expect(Object.keys(next.byId).sort()).toEqual(['auth-1', 'auth-2', 'primary', 'probe-1', 'review', 'ses-2']);
    expect(next.byId['ses-2']).toBe(s.byId['ses-2']);
  });

  it('is the same state when the session had no agents', () => {
    const s = stateWithAgents(demoTree()).agents;
    expect(dropSession(s, 'ses-7')).toBe(s);
    expect(reduceAgents(s, { type: 'event', event: sessionDetached('ses-7') })).toBe(s);
  });

  it('session agents arrive as agent.updated like any other, with their session id', () => {
    const s = stateWithAgents(demoTree()).agents;
    const next = reduceAgents(s, { type: 'event', event: agentUpdated(makeAgent('ses-3', { sessionId: 'ses-3' })) });
    expect(next.byId['ses-3']?.sessionId).toBe('ses-3');
  });
});

describe('session.detached in the root reducer', () => {
  it('clears the selection when it pointed at an agent of the session, and the inspector with it', () => {
    let s = reduce(stateWithAgents(mixed()), { type: 'agent.select', agentId: 'ses-1/agent-a1' });
    s = reduce(s, { type: 'generations.list', agentId: 'ses-1/agent-a1', generations: [] });
    s = reduce(s, { type: 'sessions.attachedSnapshot', sessions: [makeLive('ses-1'), makeLive('ses-2')] });
    const next = reduce(s, { type: 'event', event: sessionDetached('ses-1') });
    expect(next.ui.selectedAgentId).toBeNull();
    expect(next.generations.agentId).toBeNull();
    expect(next.agents.byId['ses-1']).toBeUndefined();
    expect(next.sessions.order).toEqual(['ses-2']);
  });

  it('clears a selected main agent that had not arrived yet (its id is the session id)', () => {
    const s = reduce(stateWithAgents(demoTree()), { type: 'agent.select', agentId: 'ses-1' });
    expect(reduce(s, { type: 'event', event: sessionDetached('ses-1') }).ui.selectedAgentId).toBeNull();
  });

  it('keeps a selection outside the session, also inside a batch of events', () => {
    const s = reduce(stateWithAgents(mixed()), { type: 'agent.select', agentId: 'auth-1' });
    const next = reduce(s, { type: 'events', events: [sessionDetached('ses-1'), sessionDetached('ses-2')] });
    expect(next.ui.selectedAgentId).toBe('auth-1');
    expect(next.agents.order).toEqual(['primary', 'review', 'auth-1', 'auth-2', 'probe-1']);
  });
});
