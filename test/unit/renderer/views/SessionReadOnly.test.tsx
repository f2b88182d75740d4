import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { reduce, type RootState } from '../../../../renderer/store/reduce';
import { AgentView } from '../../../../renderer/views/agent/AgentView';
import { AgentTree } from '../../../../renderer/views/AgentTree';
import { Candidates } from '../../../../renderer/views/memory/Candidates';
import { demoTree, makeAgent, stateWithAgents } from '../fixtures';
import { makeGeneration, makeRun, makeSummary } from '../generationFixtures';
import { renderWithStore } from '../renderWithStore';
import { makeLive, makeLiveDetail } from '../sessionFixtures';
import { stubResizeObserver } from '../resizeObserverStub';

beforeAll(stubResizeObserver);

afterEach(cleanup);

const NOTE = 'Watching an attached session: read-only.';

/** The demo tree plus session ses-1 (main thread and a sidechain); `agentId` selected with generation 2 loaded. */
function selected(agentId: string): RootState {
  let s = stateWithAgents([
    ...demoTree(),
    makeAgent('ses-1', { role: 'primary', sessionId: 'ses-1' }),
    makeAgent('ses-1/agent-a1', { parent: 'ses-1', sessionId: 'ses-1' }),
  ]);
  s = reduce(s, { type: 'agent.select', agentId });
  s = reduce(s, { type: 'runs.list', runs: [makeRun({ status: 'running' })] });
  s = reduce(s, { type: 'sessions.attachedSnapshot', sessions: [makeLive('ses-1')] });
  s = reduce(s, { type: 'sessions.detail', detail: makeLiveDetail('ses-1') });
  s = reduce(s, { type: 'generations.list', agentId, generations: [makeSummary(agentId, 1), makeSummary(agentId, 2)] });
  return reduce(s, { type: 'generation.detail', detail: makeGeneration(agentId, 2) });
}

const MUTATING = [/^Pin /, /^Unpin /, /^Verify /, /^Promote /, /^Remove /, /^Refresh context$/, /^Rebuild context$/, /Start$/, /Pause$/, /^Step$/, /Stop$/];

describe('session agents are read-only', () => {
  it('a session agent shows the read-only note and the Real vs Strata panel, and no control that would change it', () => {
    renderWithStore(<AgentView />, selected('ses-1/agent-a1'));
    expect(screen.getByRole('note').textContent).toContain(NOTE);
    expect(screen.getByRole('region', { name: 'Real vs Strata · ses-1' })).toBeTruthy();
    for (const name of MUTATING) expect(screen.queryAllByRole('button', { name })).toEqual([]);
    expect(screen.queryByLabelText('Refresh reason')).toBeNull();
    expect(screen.queryByRole('group', { name: 'Run controls' })).toBeNull();
    // Still inspectable: the items, their generation and the picker are there.
    expect(within(screen.getByRole('list', { name: 'Included in L2' })).getByText('Title of finding:1')).toBeTruthy();
    expect(screen.getByRole('combobox', { name: /Generation/ })).toBeTruthy();
  });

  it('Strata’s own agents keep every control and show no note or session panel', () => {
    const { controller } = renderWithStore(<AgentView />, selected('auth-1'));
    expect(screen.queryByRole('note')).toBeNull();
    expect(screen.queryByRole('region', { name: /Real vs Strata/ })).toBeNull();
    const row = within(screen.getByRole('list', { name: 'Included in L2' })).getByText('Title of finding:1').closest('li') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: 'Pin Title of finding:1' }));
    expect(controller.pin).toHaveBeenCalledExactlyOnceWith('finding:1');
    expect(screen.getByRole('button', { name: 'Refresh context' })).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Run controls' })).toBeTruthy();
  });

  it('the memory candidates of a session agent cannot be promoted', () => {
    const s = selected('ses-1');
    const item = makeGeneration('ses-1', 2).included[1]?.item;
    if (!item) throw new Error('fixture has no finding');
    renderWithStore(<Candidates />, reduce(s, { type: 'memory.candidates', agentId: 'ses-1', items: [item] }));
    expect(screen.getByRole('note').textContent).toContain(NOTE);
    expect(screen.queryByRole('button', { name: /Promote .* to memory/ })).toBeNull();
  });

  it('the tree marks session agents with a live badge and says so to assistive technology; other rows are unchanged', () => {
    renderWithStore(<AgentTree />, selected('auth-1'));
    const row = (id: string) => screen.getAllByRole('treeitem').find((li) => li.getAttribute('data-agent-id') === id) as HTMLElement;
    expect(within(row('ses-1')).getByText('live')).toBeTruthy();
    expect(row('ses-1').getAttribute('aria-label')).toBe('ses-1, primary, running, generation 1, live session ses-1, read-only');
    expect(within(row('ses-1/agent-a1')).getByText('live')).toBeTruthy();
    expect(within(row('auth-1')).queryByText('live')).toBeNull();
    // The run's own agent keeps its label; it says nothing of a live session (it may carry a flag: its fixture time is long past).
    expect(row('auth-1').getAttribute('aria-label')).toMatch(/^auth-1, worker, running, generation 1(, flagged: [a-z ,]+)?$/);
    expect(row('auth-1').getAttribute('aria-label')).not.toContain('live session');
  });
});
