import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { initialRootState } from '../../../../renderer/store/reduce';
import { EventsView } from '../../../../renderer/views/EventsView';
import { LogStrip } from '../../../../renderer/views/LogStrip';
import { logEvent, makeAgent, makeLogEntry, stateWithAgents } from '../fixtures';
import { renderWithStore } from '../renderWithStore';

const lines = [
  makeLogEntry(1, { agentId: 'worker-a', message: 'Turn 1 · gen 1 · 0 tool call(s) · prompt 900 tokens, 0% cached (modeled) · prefix reuse 0%', level: 'debug' }),
  makeLogEntry(2, { agentId: 'worker-a', message: 'Context refreshed · Generation 1 → 2 · Reason: context limit' }),
  makeLogEntry(3, { agentId: 'worker-b', message: 'Conversation summarize (threshold) compacted: 9000 → 2000 tokens · over budget' }),
  makeLogEntry(4, { agentId: 'worker-b', message: 'worker-b failed: provider error 529', level: 'error' }),
];

const rowTexts = () => within(screen.getByRole('list', { name: 'Event log entries, newest first' })).getAllByRole('listitem').map((li) => li.querySelector('.events__msg')?.textContent);

describe('EventsView', () => {
  afterEach(cleanup);

  it('shows an empty state before any event', () => {
    renderWithStore(<EventsView />);
    expect(screen.getByText(/No events yet/)).toBeTruthy();
  });

  it('lists events newest first, live, next to a working LogStrip', () => {
    const r = renderWithStore(
      <>
        <EventsView />
        <LogStrip />
      </>,
    );
    act(() => {
      for (const e of lines) r.store.getState().dispatch({ type: 'event', event: logEvent(e) });
    });
    expect(rowTexts()).toEqual([lines[3]?.message, lines[2]?.message, lines[1]?.message, lines[0]?.message]);
    expect(within(screen.getByRole('contentinfo', { name: 'Event log' })).getAllByRole('listitem')).toHaveLength(4);
  });

  it('filters by kind, agent and text, and says when nothing matches', () => {
    const r = renderWithStore(<EventsView />);
    act(() => {
      for (const e of lines) r.store.getState().dispatch({ type: 'event', event: logEvent(e) });
    });
    const refreshes = screen.getByRole('button', { name: /^refreshes/ });
    fireEvent.click(refreshes);
    expect(refreshes.getAttribute('aria-pressed')).toBe('true');
    expect(rowTexts()).toEqual([lines[1]?.message]);
    fireEvent.click(screen.getByRole('button', { name: /^errors/ }));
    expect(rowTexts()).toEqual([lines[3]?.message, lines[1]?.message]);
    fireEvent.change(screen.getByLabelText('Filter by agent'), { target: { value: 'worker-b' } });
    expect(rowTexts()).toEqual([lines[3]?.message]);
    fireEvent.change(screen.getByLabelText('Filter events by text'), { target: { value: 'nothing like this' } });
    expect(screen.getByText('No event matches the filter.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /^all/ }));
    fireEvent.change(screen.getByLabelText('Filter by agent'), { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('Filter events by text'), { target: { value: 'COMPACTED' } });
    expect(rowTexts()).toEqual([lines[2]?.message]);
  });

  it('counts entries per kind on the filter chips', () => {
    renderWithStore(<EventsView />, { ...initialRootState, events: { entries: [], next: 1, maxSeq: 0 } });
    expect(screen.getByRole('button', { name: /^hook denials/ }).textContent).toBe('hook denials 0');
  });

  it('hides compactions in one click, whatever kinds are picked, and the log strip with it', () => {
    const r = renderWithStore(
      <>
        <EventsView />
        <LogStrip />
      </>,
    );
    act(() => {
      for (const e of lines) r.store.getState().dispatch({ type: 'event', event: logEvent(e) });
    });
    const hide = screen.getAllByRole('button', { name: /^hide compactions/ })[0] as HTMLElement;
    expect(hide.textContent).toBe('hide compactions 1');
    fireEvent.click(hide);
    expect(hide.getAttribute('aria-pressed')).toBe('true');
    expect(rowTexts()).toEqual([lines[3]?.message, lines[1]?.message, lines[0]?.message]);
    expect(within(screen.getByRole('contentinfo', { name: 'Event log' })).getAllByRole('listitem')).toHaveLength(3);
    fireEvent.click(screen.getByRole('button', { name: /^compactions/ }));
    expect(screen.getByText('No event matches the filter.')).toBeTruthy();
    fireEvent.click(hide);
    expect(rowTexts()).toEqual([lines[2]?.message]);
  });

  it("a row's agent opens that agent at the generation the event names, by a button the keyboard reaches, as the log strip does", async () => {
    const state = stateWithAgents([makeAgent('worker-a', { generation: 3 }), makeAgent('worker-b', { generation: 1 })], { view: 'events' });
    const r = renderWithStore(<EventsView />, state);
    act(() => {
      for (const e of lines) r.store.getState().dispatch({ type: 'event', event: logEvent(e) });
      r.store.getState().dispatch({ type: 'event', event: { name: 'memory.changed', payload: { change: 'purged', id: null, entry: null } } });
    });
    const list = screen.getByRole('list', { name: 'Event log entries, newest first' });
    const opens = within(list).getAllByRole('button');
    // Newest first: the purge names no agent; the compaction and the error name no generation; the refresh names the generation it began.
    expect(opens.map((b) => b.getAttribute('aria-label'))).toEqual(['Open worker-b', 'Open worker-b', 'Open worker-a at generation 2', 'Open worker-a at generation 1']);
    expect(within(list).getAllByRole('listitem')[0]?.querySelector('.events__agent')?.textContent).toBe('—');
    const turn = opens[3] as HTMLButtonElement;
    // A real button in the tab order: Enter and Space open it as a click does.
    expect(turn.tagName).toBe('BUTTON');
    expect(turn.type).toBe('button');
    expect(turn.tabIndex).toBe(0);
    await act(async () => fireEvent.click(turn));
    expect(r.store.getState().ui.view).toBe('agent');
    expect(r.controller.select).toHaveBeenCalledWith('worker-a');
    expect(r.controller.viewGeneration).toHaveBeenCalledWith(1);
  });
});
