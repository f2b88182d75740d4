import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ChartsView } from '../../../../renderer/views/ChartsView';
import { stateWithAgents, makeAgent } from '../fixtures';
import { renderWithStore } from '../renderWithStore';
import { contextRefreshed, makeCall, usageRecorded } from '../usageFixtures';
import { stubResizeObserver } from '../resizeObserverStub';

beforeAll(stubResizeObserver);

const agents = [makeAgent('primary', { role: 'primary' }), makeAgent('worker-a', { parent: 'primary' })];

describe('ChartsView', () => {
  afterEach(cleanup);

  it('asks the controller for the selected agent’s calls and shows the loading state', () => {
    const r = renderWithStore(<ChartsView chartWidth={640} />, stateWithAgents(agents, { selectedAgentId: 'worker-a' }));
    expect(r.controller.loadUsage).toHaveBeenCalledWith('worker-a');
    act(() => r.store.getState().dispatch({ type: 'usage.loading', agentId: 'worker-a' }));
    expect(screen.getByRole('status').textContent).toContain('Loading the calls of worker-a');
  });

  it('says what is missing when there are no calls yet', () => {
    renderWithStore(<ChartsView chartWidth={640} />, stateWithAgents(agents, { selectedAgentId: 'primary' }));
    expect(screen.getByRole('status').textContent).toContain('No calls yet for primary');
    expect(screen.getByText(/Cache model only \(dashed\)/)).toBeTruthy();
  });

  it('draws both charts with labelled axes, legends and refresh markers as calls arrive', async () => {
    const r = renderWithStore(<ChartsView chartWidth={640} />, stateWithAgents(agents, { selectedAgentId: 'worker-a' }));
    act(() => {
      const { dispatch } = r.store.getState();
      dispatch({ type: 'event', event: usageRecorded([1, 2, 3, 4].map((t) => makeCall('worker-a', t, { generation: t > 2 ? 2 : 1 }))) });
      dispatch({ type: 'event', event: contextRefreshed('worker-a', 2) });
    });
    // The tokens chart follows the rate chart a frame later (each redraw gets a frame of its own).
    await act(() => new Promise<void>((done) => requestAnimationFrame(() => done())));
    const rate = screen.getByRole('figure', { name: 'Cache hit rate and prefix reuse per call' });
    const tokens = screen.getByRole('figure', { name: 'Prompt tokens per turn' });
    for (const fig of [rate, tokens]) {
      expect(fig.querySelector('svg.recharts-surface')).not.toBeNull();
      expect(within(fig).getByText('time of call (wall clock)')).toBeTruthy();
      expect(fig.querySelectorAll('.recharts-xAxis .recharts-cartesian-axis-tick').length).toBeGreaterThan(0);
      expect(fig.querySelectorAll('.recharts-yAxis .recharts-cartesian-axis-tick').length).toBeGreaterThan(0);
    }
    expect(within(rate).getByText('% of prompt tokens')).toBeTruthy();
    expect(within(tokens).getByText('prompt tokens per turn')).toBeTruthy();
    const legend = (fig: HTMLElement) => [...fig.querySelectorAll('.recharts-legend-item-text')].map((e) => e.textContent);
    expect(legend(rate)).toEqual(['hit rate · provider', 'hit rate · cache model', 'prefix reuse (measured)', 'refresh ⟳ / new generation +']);
    expect(legend(tokens)).toEqual(['cache read · cache model', 'cache write · cache model', 'uncached input · cache model']);
    expect(rate.querySelectorAll('.recharts-reference-line').length).toBe(1);
    expect(screen.getByTestId('chart-markers').textContent).toContain('⟳ refresh worker-a → g2 · context limit');
    expect(screen.getByTestId('charts-count').textContent).toContain('4 calls · worker-a');
  });

  it('switches to all agents with the keyboard-reachable scope buttons', () => {
    const r = renderWithStore(<ChartsView chartWidth={640} />, stateWithAgents(agents, { selectedAgentId: 'worker-a' }));
    act(() => r.store.getState().dispatch({ type: 'event', event: usageRecorded([makeCall('primary', 1), makeCall('worker-a', 2)]) }));
    expect(screen.getByTestId('charts-count').textContent).toContain('1 call · worker-a');
    const all = screen.getByRole('button', { name: 'All agents' });
    fireEvent.click(all);
    expect(all.getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByTestId('charts-count').textContent).toContain('2 calls · all 2 agents');
    expect(screen.queryByLabelText('Agent for the charts')).toBeNull();
  });

  it('draws all agents per time slice and says what a point is; one agent stays per call', async () => {
    const r = renderWithStore(<ChartsView chartWidth={640} />, stateWithAgents(agents, { selectedAgentId: 'worker-a' }));
    act(() => r.store.getState().dispatch({ type: 'event', event: usageRecorded([1, 2, 3, 4, 5, 6].map((t) => makeCall(t % 2 ? 'primary' : 'worker-a', t))) }));
    expect(screen.getByRole('figure', { name: 'Cache hit rate and prefix reuse per call' })).toBeTruthy();
    expect(screen.queryByTestId('charts-slice')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'All agents' }));
    await act(() => new Promise<void>((done) => requestAnimationFrame(() => done())));
    // The fixtures' calls are 20 s apart: 100 s in 1 s slices would be 101 points; 2 s slices fit.
    const rate = screen.getByRole('figure', { name: 'Cache hit rate and prefix reuse per call, all agents by time slice' });
    expect(rate.querySelector('figcaption')?.textContent).toBe('Cache hit rate and prefix reuse per call, all agents (mean): one point per 2 s of wall clock');
    expect(screen.getByTestId('charts-slice').textContent).toContain('A point is every call of every agent in one 2 s slice of wall clock');
    expect(screen.getByRole('figure', { name: 'Prompt tokens per turn' }).querySelector('figcaption')?.textContent).toBe('Prompt tokens per turn by cache outcome, all agents: mean per call in each 2 s');
    expect(rate.querySelector('.recharts-line-curve')).not.toBeNull();
    expect(screen.getByTestId('charts-count').textContent).toContain('6 calls · all 2 agents');
  });

  it('picks another agent through the controller', () => {
    const r = renderWithStore(<ChartsView chartWidth={640} />, stateWithAgents(agents, { selectedAgentId: 'worker-a' }));
    fireEvent.change(screen.getByLabelText('Agent for the charts'), { target: { value: 'primary' } });
    expect(r.controller.select).toHaveBeenCalledWith('primary');
  });
});
