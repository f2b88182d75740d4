import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AgentTree } from '../../../../renderer/views/AgentTree';
import { EventsView } from '../../../../renderer/views/EventsView';
import { makeAgent, stateWithAgents } from '../fixtures';
import { renderWithStore } from '../renderWithStore';
import { stubResizeObserver } from '../resizeObserverStub';
import type { RootState } from '../../../../renderer/store/reduce';

beforeAll(stubResizeObserver);

const fresh = () => new Date().toISOString();
const limitReason = 'provider context-limit error: prompt is too long: 203928 tokens > 200000 maximum';

function troubledState(): RootState {
  const s = stateWithAgents([
    makeAgent('primary', { role: 'primary', updatedAt: fresh() }),
    makeAgent('worker-store', { parent: 'primary', generation: 2, tokens: 42_000, budget: 64_000, updatedAt: fresh(), boundary: { kind: 'refresh', reason: limitReason } }),
    makeAgent('worker-broken', { parent: 'primary', status: 'failed', updatedAt: fresh(), lastError: { message: 'worker-broken failed: provider answered 500', at: fresh(), seq: 3 } }),
    makeAgent('worker-full', { parent: 'primary', tokens: 70_000, budget: 64_000, updatedAt: fresh() }),
  ]);
  return {
    ...s,
    events: {
      ...s.events,
      entries: [
        { id: 'log:1', kind: 'refresh', level: 'info', agentId: 'worker-store', at: 1, text: `Context refreshed · Generation 1 → 2 · Reason: ${limitReason}` },
        { id: 'log:2', kind: 'error', level: 'debug', agentId: 'worker-store', at: 2, text: 'Turn 32 · gen 2 · 1 tool call(s) · prompt 42828 tokens, 0% cached (modeled) · prefix reuse 2% · 1 retry (1 refresh)' },
        { id: 'log:3', kind: 'error', level: 'error', agentId: 'worker-broken', at: 3, text: 'worker-broken failed: provider answered 500' },
      ],
      maxSeq: 3,
    },
  };
}

const row = (id: string) => screen.getByRole('tree').querySelector<HTMLElement>(`[data-agent-id="${id}"]`) as HTMLElement;

describe('AgentTree flags', () => {
  afterEach(cleanup);

  it('flags the rows in trouble, says why in the row tooltip, and leaves the others plain', () => {
    renderWithStore(<AgentTree />, troubledState());
    expect(row('primary').dataset.flags).toBeUndefined();
    expect(row('worker-store').dataset.flags).toBe('refreshed');
    expect(row('worker-broken').dataset.flags).toBe('error');
    expect(row('worker-full').dataset.flags).toBe('overBudget');
    expect(row('worker-broken').getAttribute('aria-label')).toContain('flagged: error');
    const title = row('worker-store').querySelector('.tree__select')?.getAttribute('title') ?? '';
    expect(title).toContain('Refreshed by a context limit into generation 2');
    expect(title).toContain('provider window 200k');
    expect(title).toContain('engine budget 64k');
    expect(row('worker-broken').querySelector('.tree__select')?.getAttribute('title')).toContain('Error: worker-broken failed: provider answered 500');
  });

  it('jumps from a refresh flag to the generation it led to, from an error to the agent’s errors, from over budget to the current generation', async () => {
    const r = renderWithStore(<AgentTree />, troubledState());
    fireEvent.click(within(row('worker-store')).getByRole('button', { name: 'refreshed' }));
    await waitFor(() => expect(r.controller.viewGeneration).toHaveBeenCalledWith(2));
    expect(r.controller.select).toHaveBeenCalledWith('worker-store');
    expect(r.store.getState().ui.view).toBe('agent');

    fireEvent.click(within(row('worker-broken')).getByRole('button', { name: 'error' }));
    await waitFor(() => expect(r.store.getState().ui.view).toBe('events'));
    expect(r.controller.select).toHaveBeenLastCalledWith('worker-broken');
    expect(r.store.getState().ui.eventsFocus).toMatchObject({ agentId: 'worker-broken', kinds: ['error'] });

    fireEvent.click(within(row('worker-full')).getByRole('button', { name: 'over budget' }));
    await waitFor(() => expect(r.controller.viewGeneration).toHaveBeenLastCalledWith(null));
    expect(r.store.getState().ui.view).toBe('agent');
  });

  it('opens the charts of an agent with a low hit rate', async () => {
    const s = stateWithAgents([makeAgent('cold', { cacheHitRate: 0.05, usage: { input: 95_000, cacheRead: 5_000, cacheWrite: 0, output: 0 }, updatedAt: fresh() })]);
    const r = renderWithStore(<AgentTree />, { ...s, ui: { ...s.ui, chartScope: 'overall' } });
    fireEvent.click(within(row('cold')).getByRole('button', { name: 'low hit' }));
    await waitFor(() => expect(r.store.getState().ui.view).toBe('charts'));
    expect(r.store.getState().ui.chartScope).toBe('agent');
  });
});

describe('EventsView from a flag', () => {
  afterEach(cleanup);

  it('takes the flag’s filter once and shows the error behind a retried turn', () => {
    const r = renderWithStore(<EventsView />, troubledState());
    act(() => r.store.getState().dispatch({ type: 'events.focus', agentId: 'worker-store', kinds: ['error'] }));
    const list = screen.getByRole('list', { name: 'Event log entries, newest first' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(1);
    expect(items[0]?.textContent).toContain('1 retry (1 refresh)');
    expect(items[0]?.querySelector('.events__note')?.textContent).toBe(`Error: ${limitReason} · 204k tokens > provider window 200k; engine budget 64k (the context % in the tree) is a different figure`);
    expect(r.store.getState().ui.eventsFocus).toBeNull();
    expect(screen.getByRole('status').textContent).toContain('wall clock');
  });
});
