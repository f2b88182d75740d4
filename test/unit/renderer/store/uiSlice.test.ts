import { describe, expect, it } from 'vitest';
import { reduceUi, uiInitialState } from '../../../../renderer/store/uiSlice';

describe('reduceUi', () => {
  it('toggling collapse once collapses, twice restores', () => {
    const once = reduceUi(uiInitialState, { type: 'tree.toggle', agentId: 'a' });
    expect(once.collapsed).toEqual({ a: true });
    const twice = reduceUi(once, { type: 'tree.toggle', agentId: 'a' });
    expect(twice.collapsed).toEqual({});
    expect(once.collapsed).toEqual({ a: true });
  });

  it('toggling one node leaves the others collapsed', () => {
    let s = reduceUi(uiInitialState, { type: 'tree.toggle', agentId: 'a' });
    s = reduceUi(s, { type: 'tree.toggle', agentId: 'b' });
    s = reduceUi(s, { type: 'tree.toggle', agentId: 'a' });
    expect(s.collapsed).toEqual({ b: true });
  });

  it('select and filter set their fields and keep the collapsed map', () => {
    const collapsed = reduceUi(uiInitialState, { type: 'tree.toggle', agentId: 'a' });
    const selected = reduceUi(collapsed, { type: 'agent.select', agentId: 'b' });
    expect(selected.selectedAgentId).toBe('b');
    expect(selected.collapsed).toBe(collapsed.collapsed);
    const filtered = reduceUi(selected, { type: 'tree.filter', text: 'Auth' });
    expect(filtered.filter).toBe('Auth');
    expect(reduceUi(filtered, { type: 'agent.select', agentId: null }).selectedAgentId).toBeNull();
  });

  it('view.select switches the main view and keeps the same state object when it is already shown', () => {
    expect(uiInitialState.view).toBe('agent');
    const charts = reduceUi(uiInitialState, { type: 'view.select', view: 'charts' });
    expect(charts.view).toBe('charts');
    expect(charts.selectedAgentId).toBe(uiInitialState.selectedAgentId);
    expect(reduceUi(charts, { type: 'view.select', view: 'charts' })).toBe(charts);
  });

  it('ignores actions that are not UI intents', () => {
    expect(reduceUi(uiInitialState, { type: 'connection.error', message: 'x' })).toBe(uiInitialState);
  });
});
