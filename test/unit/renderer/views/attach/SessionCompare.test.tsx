import { act, cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initialRootState, type RootState } from '../../../../../renderer/store/reduce';
import { sessionsInitialState } from '../../../../../renderer/store/sessions/sessionsSlice';
import { SessionCompare } from '../../../../../renderer/views/attach/SessionCompare';
import { renderWithStore } from '../../renderWithStore';
import { makeLive, makeLiveDetail } from '../../sessionFixtures';
import { stubResizeObserver } from '../../resizeObserverStub';

beforeAll(stubResizeObserver);

afterEach(cleanup);

const REAL = 'recorded (provider)';
const STRATA = 'Strata variable @ 100k (Anthropic cache model)';

function attached(detail = true, over: Parameters<typeof makeLiveDetail>[1] = {}): RootState {
  const d = makeLiveDetail('ses-1', over);
  return { ...initialRootState, sessions: { ...sessionsInitialState, attached: { 'ses-1': d.session }, order: ['ses-1'], details: detail ? { 'ses-1': d } : {} } };
}

const cell = (figure: string, column: number) => {
  const row = screen.getByRole('table', { name: 'Figures of ses-1' }).querySelector(`tr[data-figure="${figure}"]`) as HTMLElement;
  return row.querySelectorAll('td')[column]?.textContent;
};

describe('SessionCompare', () => {
  it('watches the session while shown and releases it when gone', () => {
    const r = renderWithStore(<SessionCompare sessionId="ses-1" chartWidth={480} />, attached());
    expect(r.controller.watchSession).toHaveBeenCalledWith('ses-1');
    const release = r.controller.watchSession.mock.results[0]?.value as () => void;
    r.unmount();
    expect(release).toHaveBeenCalled();
  });

  it('draws three charts with axes and both series in every legend, named so real and modelled cannot be confused', () => {
    renderWithStore(<SessionCompare sessionId="ses-1" chartWidth={480} />, attached());
    const key = screen.getByRole('list', { name: 'Series' });
    expect(key.textContent).toContain(REAL);
    expect(key.textContent).toContain(STRATA);
    for (const title of ['Cumulative prompt tokens', 'Cumulative uncached input tokens', 'Cache hit rate per step']) {
      const fig = screen.getByRole('figure', { name: title });
      expect(fig.querySelector('svg.recharts-surface')).not.toBeNull();
      expect(within(fig).getByText('step')).toBeTruthy();
      expect(fig.querySelectorAll('.recharts-xAxis .recharts-cartesian-axis-tick').length).toBeGreaterThan(0);
      expect(fig.querySelectorAll('.recharts-yAxis .recharts-cartesian-axis-tick').length).toBeGreaterThan(0);
      expect([...fig.querySelectorAll('.recharts-legend-item-text')].map((e) => e.textContent)).toEqual([REAL, STRATA]);
      expect(within(fig).getByRole('button', { name: `Export ${title} as PNG` })).toBeTruthy();
    }
    expect(within(screen.getByRole('figure', { name: 'Cumulative prompt tokens' })).getByText('prompt tokens')).toBeTruthy();
    expect(within(screen.getByRole('figure', { name: 'Cache hit rate per step' })).getByText('% of prompt tokens')).toBeTruthy();
  });

  it('marks the recording\'s compactions and Strata\'s new generations on every chart\'s step axis', () => {
    renderWithStore(<SessionCompare sessionId="ses-1" chartWidth={480} />, attached());
    expect(screen.getByRole('list', { name: 'Series' }).textContent).toMatch(/compacted its context \(1\).*began a new\s+generation \(1; ⟳ a refresh, \+ a rebuild\)/s);
    for (const title of ['Cumulative prompt tokens', 'Cumulative uncached input tokens', 'Cache hit rate per step']) {
      const fig = screen.getByRole('figure', { name: title });
      expect(fig.querySelectorAll('.recharts-reference-line').length).toBe(2);
      expect(within(fig).getByText('compact')).toBeTruthy();
      expect(within(fig).getByText('⟳ g2')).toBeTruthy();
    }
  });

  it('tabulates recorded and Strata figures side by side, Strata-only figures marked for the recording', () => {
    renderWithStore(<SessionCompare sessionId="ses-1" chartWidth={480} />, attached());
    const table = screen.getByRole('table', { name: 'Figures of ses-1' });
    expect([...table.querySelectorAll('thead th')].map((th) => th.textContent)).toEqual(['figure', REAL, STRATA, 'Strata vs recorded, same steps']);
    expect([cell('steps', 0), cell('steps', 1), cell('steps', 2)]).toEqual(['3', '3', '3 compared']);
    expect([cell('prompt', 0), cell('prompt', 1), cell('prompt', 2)]).toEqual(['30,000', '24,000', '−20%']);
    expect([cell('uncached', 0), cell('uncached', 1), cell('uncached', 2)]).toEqual(['6,000', '3,000', '−50%']);
    // The host's dollars at claude-sonnet-4's list price: $0.039 recorded, $0.0222 Strata's; the change over the same steps.
    expect([cell('cost', 0), cell('cost', 1), cell('cost', 2)]).toEqual(['$0.0390', '$0.0222', '−43%']);
    expect(screen.getByRole('row', { name: /prompt cost \(USD, list price\)/ })).toBeTruthy();
    expect(screen.getByText(/claude-sonnet-4 \(Claude Sonnet 4\): \$3 input/)).toBeTruthy();
    expect([cell('hit', 0), cell('hit', 1)]).toEqual(['67%', '79%']);
    expect([cell('reuse', 0), cell('reuse', 1)]).toEqual(['—', '92%']);
    expect([cell('recall', 0), cell('recall', 1)]).toEqual(['—', '75%']);
    expect([cell('generation', 0), cell('generation', 1)]).toEqual(['—', '2']);
    expect([cell('refreshes', 0), cell('refreshes', 1)]).toEqual(['—', '1']);
    expect(screen.queryByText(/replay trails the file/)).toBeNull();
  });

  it('while the replay trails the file, compares only the steps both series hold and says so', () => {
    const state = attached(true, {});
    const d = state.sessions.details['ses-1'];
    if (!d?.session.shadow) throw new Error('fixture has no shadow');
    const trailing = { ...d, shadow: d.shadow.slice(0, 2), session: { ...d.session, shadow: { ...d.session.shadow, replayedEvents: 20 } } };
    renderWithStore(<SessionCompare sessionId="ses-1" chartWidth={480} />, { ...state, sessions: { ...state.sessions, details: { 'ses-1': trailing } } });
    expect(cell('steps', 2)).toBe('2 compared');
    // Steps 1 and 2: 14,000 Strata prompt tokens against 18,000 recorded.
    expect(cell('prompt', 2)).toBe('−22%');
    expect(screen.getByText(/Strata's replay trails the file \(20 of 30 events\)/)).toBeTruthy();
  });

  it('says when Strata’s replay has not finished, when the series is loading, and shows a load error', () => {
    const state = attached(false);
    const { store } = renderWithStore(<SessionCompare sessionId="ses-1" chartWidth={480} />, state);
    expect(screen.getByRole('status').textContent).toBe('Loading the series of ses-1…');
    act(() => store.getState().dispatch({ type: 'sessions.detailFailed', sessionId: 'ses-1', message: 'The series of ses-1 could not be loaded: worker crashed' }));
    expect(screen.getByRole('alert').textContent).toBe('The series of ses-1 could not be loaded: worker crashed');
    const pending = makeLiveDetail('ses-1');
    act(() => store.getState().dispatch({ type: 'sessions.detail', detail: { ...pending, session: { ...pending.session, shadow: null }, shadow: [] } }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText("Strata's first replay has not finished yet: only the recorded series is drawn.")).toBeTruthy();
    expect(cell('prompt', 1)).toBe('replaying…');
  });
});
