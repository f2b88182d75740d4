import { describe, expect, it } from 'vitest';
import type { AppCommand } from '../../../../../engine/contract';
import { reduceUi, uiInitialState } from '../../../../../renderer/store/ui/uiSlice';

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

  it('a desktop menu command shows its view; purge-memory opens the confirmation in the Memory view', () => {
    const command = (c: AppCommand) => ({ type: 'event' as const, event: { name: 'app.command' as const, payload: { command: c } } });
    const compare = reduceUi(uiInitialState, command('show-compare'));
    expect(compare.view).toBe('compare');
    expect(compare.purgeDialog).toBe(false);
    expect(reduceUi(compare, command('show-compare'))).toBe(compare);
    const purge = reduceUi(compare, command('purge-memory'));
    expect(purge).toMatchObject({ view: 'memory', purgeDialog: true });
    // Showing the Memory view again keeps the open confirmation; leaving the view closes it.
    expect(reduceUi(purge, command('show-memory')).purgeDialog).toBe(true);
    expect(reduceUi(purge, command('show-events'))).toMatchObject({ view: 'events', purgeDialog: false });
    expect(reduceUi(purge, command('show-gateway'))).toMatchObject({ view: 'gateway', purgeDialog: false });
    expect(reduceUi(purge, { type: 'view.select', view: 'charts' }).purgeDialog).toBe(false);
    expect(reduceUi(purge, { type: 'purge.dialog', open: false })).toMatchObject({ view: 'memory', purgeDialog: false });
  });

  it('other host events leave the UI state as it is', () => {
    const log = { type: 'event' as const, event: { name: 'log' as const, payload: { entry: { seq: 1, at: '2026-11-30T00:00:00Z', level: 'info' as const, agentId: null, message: 'x' } } } };
    expect(reduceUi(uiInitialState, log)).toBe(uiInitialState);
  });
});

describe('reduceUi: panes, hidden kinds, the shortcut list', () => {
  it('layout.set merges a change and keeps the state when nothing changed', () => {
    const wide = reduceUi(uiInitialState, { type: 'layout.set', layout: { railWidth: 320 } });
    expect(wide.layout).toEqual({ ...uiInitialState.layout, railWidth: 320 });
    expect(reduceUi(wide, { type: 'layout.set', layout: { railWidth: 320 } })).toBe(wide);
    expect(reduceUi(wide, { type: 'layout.set', layout: { stripCollapsed: true } }).layout).toEqual({ ...wide.layout, stripCollapsed: true });
  });

  it('events.hideKinds holds each kind once; shortcuts.dialog opens and closes', () => {
    expect(reduceUi(uiInitialState, { type: 'events.hideKinds', kinds: ['compaction', 'compaction', 'turn'] }).hiddenKinds).toEqual(['compaction', 'turn']);
    const open = reduceUi(uiInitialState, { type: 'shortcuts.dialog', open: true });
    expect(open.shortcutsDialog).toBe(true);
    expect(reduceUi(open, { type: 'shortcuts.dialog', open: true })).toBe(open);
    expect(reduceUi(open, { type: 'shortcuts.dialog', open: false }).shortcutsDialog).toBe(false);
  });
});
