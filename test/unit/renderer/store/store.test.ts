import { describe, expect, it, vi } from 'vitest';
import { createStrataStore } from '../../../../renderer/store/store';
import { agentUpdated, makeAgent, stateWithAgents } from '../fixtures';

describe('createStrataStore', () => {
  it('dispatch applies the reducer and notifies subscribers', () => {
    const store = createStrataStore();
    const listener = vi.fn();
    store.subscribe(listener);
    store.getState().dispatch({ type: 'tree.filter', text: 'auth' });
    expect(store.getState().ui.filter).toBe('auth');
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('an action that changes nothing does not notify', () => {
    const store = createStrataStore(stateWithAgents([makeAgent('a', { revision: 3 })]));
    const before = store.getState();
    const listener = vi.fn();
    store.subscribe(listener);
    before.dispatch({ type: 'event', event: agentUpdated(makeAgent('a', { revision: 2 })) });
    expect(listener).not.toHaveBeenCalled();
    expect(store.getState()).toBe(before);
  });

  it('each store is independent', () => {
    const one = createStrataStore();
    const two = createStrataStore();
    one.getState().dispatch({ type: 'agent.select', agentId: 'a' });
    expect(one.getState().ui.selectedAgentId).toBe('a');
    expect(two.getState().ui.selectedAgentId).toBeNull();
  });
});
