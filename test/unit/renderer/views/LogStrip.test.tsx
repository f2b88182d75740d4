import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { initialRootState } from '../../../../renderer/store/reduce';
import { LogStrip, STRIP_DEFAULT_PX } from '../../../../renderer/views/LogStrip';
import { makeAgent, makeLogEntry, stateWithAgents } from '../fixtures';
import { logLineText, renderWithStore } from '../renderWithStore';

describe('LogStrip', () => {
  afterEach(cleanup);

  it('shows the newest six workspace lines with the agent that wrote them', () => {
    const entries = Array.from({ length: 8 }, (_, i) => makeLogEntry(i + 1, { agentId: i % 2 ? `agent-${i + 1}` : null, message: `event ${i + 1}` }));
    renderWithStore(<LogStrip />, { ...initialRootState, log: { entries } });
    const items = within(screen.getByRole('contentinfo', { name: 'Event log' })).getAllByRole('listitem');
    expect(items.map(logLineText)).toEqual([
      'event 3',
      'agent-4 event 4',
      'event 5',
      'agent-6 event 6',
      'event 7',
      'agent-8 event 8',
    ]);
  });
});

describe('LogStrip: a steady height', () => {
  afterEach(cleanup);
  it('expanded, it keeps the height of six lines while fewer have arrived, so its bar does not move under the pointer; collapsed, it is one line', () => {
    const strip = () => screen.getByRole('contentinfo', { name: 'Event log' });
    const { store } = renderWithStore(<LogStrip />, { ...initialRootState, log: { entries: [makeLogEntry(1, { message: 'one' })] } });
    expect(strip().style.height).toBe(`${STRIP_DEFAULT_PX}px`);
    act(() => store.getState().dispatch({ type: 'event', event: { name: 'log', payload: { entry: makeLogEntry(2, { message: 'two' }) } } } as never));
    expect(within(strip()).getAllByRole('listitem')).toHaveLength(2);
    expect(strip().style.height).toBe(`${STRIP_DEFAULT_PX}px`);
    act(() => store.getState().dispatch({ type: 'layout.set', layout: { stripHeight: 300 } }));
    expect(strip().style.height).toBe('300px');
    act(() => store.getState().dispatch({ type: 'layout.set', layout: { stripCollapsed: true } }));
    expect(strip().style.height).toBe('');
  });
});

describe('LogStrip: collapsible, quiet for screen readers, a way to the agent', () => {
  afterEach(cleanup);
  const strip = () => screen.getByRole('contentinfo', { name: 'Event log' });

  it('only the summary of errors and warnings is a live region, never the lines', () => {
    const entries = [makeLogEntry(1, { message: 'one' }), makeLogEntry(2, { level: 'error', agentId: 'w', message: 'w failed: provider error 529' })];
    renderWithStore(<LogStrip />, { ...initialRootState, log: { entries } });
    const live = strip().querySelectorAll('[aria-live]');
    expect(live).toHaveLength(1);
    expect(live[0]?.textContent).toBe('1 error');
    expect(within(strip()).getByRole('list').closest('[aria-live]')).toBeNull();
  });

  it('collapses to the newest line and expands again, remembered in the layout', () => {
    const entries = Array.from({ length: 8 }, (_, i) => makeLogEntry(i + 1, { message: `event ${i + 1}` }));
    const { store } = renderWithStore(<LogStrip />, { ...initialRootState, log: { entries } });
    const toggle = within(strip()).getByRole('button', { name: /Log/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(toggle);
    expect(store.getState().ui.layout.stripCollapsed).toBe(true);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(within(strip()).queryByRole('list')).toBeNull();
    expect(strip().querySelector('.strip__latest')?.textContent).toContain('event 8');
    fireEvent.click(toggle);
    expect(within(strip()).getAllByRole('listitem')).toHaveLength(6);
  });

  it('a taller strip shows more lines', () => {
    const entries = Array.from({ length: 30 }, (_, i) => makeLogEntry(i + 1));
    renderWithStore(<LogStrip />, { ...initialRootState, log: { entries }, ui: { ...initialRootState.ui, layout: { ...initialRootState.ui.layout, stripHeight: 26 + 18 * 10 } } });
    expect(within(strip()).getAllByRole('listitem')).toHaveLength(10);
  });

  it('hide compactions leaves them out of the strip in one click', () => {
    const entries = [makeLogEntry(1, { message: 'Spawned a' }), makeLogEntry(2, { message: 'Conversation summarize (threshold) compacted: 9000 → 2000 tokens' })];
    const { store } = renderWithStore(<LogStrip />, { ...initialRootState, log: { entries } });
    expect(within(strip()).getAllByRole('listitem')).toHaveLength(2);
    fireEvent.click(within(strip()).getByRole('button', { name: 'hide compactions' }));
    expect(store.getState().ui.hiddenKinds).toEqual(['compaction']);
    expect(within(strip()).getAllByRole('listitem').map(logLineText)).toEqual(['Spawned a']);
  });

  it("a line's agent opens the Agent view on that agent, at the past generation the line names", async () => {
    const entries = [makeLogEntry(1, { agentId: 'worker-a', message: 'Turn 3 · gen 1 · 0 tool call(s)' }), makeLogEntry(2, { agentId: 'worker-b', message: 'Turn 9 · gen 4 · 2 tool call(s)' })];
    const state = stateWithAgents([makeAgent('worker-a', { generation: 2 }), makeAgent('worker-b', { generation: 4 })], { view: 'events', selectedAgentId: 'worker-b' });
    const { store, controller } = renderWithStore(<LogStrip />, { ...state, log: { entries } });
    await act(async () => fireEvent.click(within(strip()).getByRole('button', { name: 'Open worker-a at generation 1' })));
    expect(store.getState().ui.view).toBe('agent');
    expect(controller.select).toHaveBeenCalledWith('worker-a');
    expect(controller.viewGeneration).toHaveBeenCalledWith(1);
    controller.select.mockClear();
    controller.viewGeneration.mockClear();
    // The current generation of the agent already selected: no reselect, nothing pinned.
    await act(async () => fireEvent.click(within(strip()).getByRole('button', { name: 'Open worker-b at generation 4' })));
    expect(controller.select).not.toHaveBeenCalled();
    expect(controller.viewGeneration).not.toHaveBeenCalled();
  });
});
