import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { reduce, type RootState } from '../../../../renderer/store/reduce';
import { ContextInspector } from '../../../../renderer/views/agent/ContextInspector';
import { GenerationDiff } from '../../../../renderer/views/agent/GenerationDiff';
import { GenerationTimeline } from '../../../../renderer/views/agent/GenerationTimeline';
import { PromptView } from '../../../../renderer/views/agent/PromptView';
import { RunBar } from '../../../../renderer/views/agent/RunBar';
import { AgentView } from '../../../../renderer/views/agent/AgentView';
import { demoTree, stateWithAgents } from '../fixtures';
import { generationStarted, makeDiff, makeGeneration, makeRun, makeSummary } from '../generationFixtures';
import { renderWithStore } from '../renderWithStore';

/** auth-1 selected, with generations 1 and 2 listed and generation 2 loaded. */
function loaded(over: Parameters<typeof makeGeneration>[2] = {}): RootState {
  let s = stateWithAgents(demoTree(), { selectedAgentId: null });
  s = reduce(s, { type: 'agent.select', agentId: 'auth-1' });
  s = reduce(s, { type: 'generations.list', agentId: 'auth-1', generations: [makeSummary('auth-1', 1), makeSummary('auth-1', 2)] });
  return reduce(s, { type: 'generation.detail', detail: makeGeneration('auth-1', 2, over) });
}

describe('ContextInspector', () => {
  afterEach(cleanup);

  it('shows the layers, included items with provenance and why, dropped with reasons, compressed before/after', () => {
    renderWithStore(<ContextInspector />, loaded());
    const inspector = screen.getByRole('region', { name: 'Context inspector' });
    expect(within(inspector).getByText(/generation 2/)).toBeTruthy();
    expect(screen.getByRole('img', { name: /L0 50 tokens, L1 40 tokens, L2 420 tokens, L3 10 tokens; budget 1000/ })).toBeTruthy();

    const l1 = screen.getByRole('list', { name: 'Included in L1' });
    const constraint = within(l1).getByText('Constraint A').closest('li') as HTMLElement;
    expect(constraint.getAttribute('data-pinned')).toBe('true');
    expect(constraint.textContent).toContain('why: pinned constraint');
    expect(constraint.textContent).toContain('by user · task:auth · 2026-01-05 09:20Z · confidence 0.80 · verified · files src/a.ts · symbols issueToken');

    const l2 = screen.getByRole('list', { name: 'Included in L2' });
    expect(within(l2).getAllByRole('listitem')).toHaveLength(2);
    expect(within(l2).getByText('score 0.91')).toBeTruthy();

    const dropped = screen.getByRole('list', { name: 'Dropped' });
    expect(dropped.textContent).toContain('reason: over budget at tier 4');
    const compressed = screen.getByRole('table', { name: 'Compressed' });
    expect(within(compressed).getByText('Title of finding:1')).toBeTruthy();
    expect(compressed.textContent).toContain('900300600');
    expect(screen.getByText('overflow: none')).toBeTruthy();
    expect(screen.getByRole('figure', { name: 'Composition by class' })).toBeTruthy();
  });

  it('shows the overflow banner when pinned content exceeds the budget', () => {
    renderWithStore(<ContextInspector />, loaded({ overflow: 240 }));
    expect(screen.getByText(/Overflow: pinned and mandatory content needs 240 tokens more than the budget of 1k/)).toBeTruthy();
  });

  it('says so while loading, when nothing is built, and shows a load error as an alert', () => {
    let s = stateWithAgents(demoTree());
    s = reduce(s, { type: 'agent.select', agentId: 'auth-1' });
    const { store } = renderWithStore(<ContextInspector />, s);
    expect(screen.getByText('No generation yet: the agent has not been built.')).toBeTruthy();
    act(() => store.getState().dispatch({ type: 'generations.loading', agentId: 'auth-1', part: 'detail' }));
    expect(screen.getByText('Loading the generation…')).toBeTruthy();
    act(() => store.getState().dispatch({ type: 'generations.failed', agentId: 'auth-1', part: 'detail', message: 'Agent "auth-1" has not been built yet.' }));
    expect(screen.getByRole('alert').textContent).toBe('Agent "auth-1" has not been built yet.');
    // With no generation listed, not_found is the agent's state, not a failure.
    act(() => store.getState().dispatch({ type: 'generations.list', agentId: 'auth-1', generations: [] }));
    expect(screen.queryByRole('alert')).toBeNull();
    // One message, not the state and the host's words for it twice.
    expect(screen.getByText('No generation yet: the agent has not been built; it builds at its first turn.')).toBeTruthy();
    expect(screen.queryByText(/has not been built yet/)).toBeNull();
  });

  it('item controls call one controller method each, and show a failure inline as an alert', () => {
    const { controller, store } = renderWithStore(<ContextInspector />, loaded());
    const row = within(screen.getByRole('list', { name: 'Included in L2' })).getByText('Title of finding:1').closest('li') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: 'Pin Title of finding:1' }));
    expect(controller.pin).toHaveBeenCalledExactlyOnceWith('finding:1');
    fireEvent.click(within(row).getByRole('button', { name: 'Promote Title of finding:1 to memory' }));
    expect(controller.promoteToMemory).toHaveBeenCalledExactlyOnceWith('finding:1');
    // Remove and verify cannot be taken back: they ask first (the preview), and change nothing yet.
    fireEvent.click(within(row).getByRole('button', { name: 'Remove Title of finding:1' }));
    expect(controller.askChange).toHaveBeenLastCalledWith('finding:1', 'remove', 'Title of finding:1');
    fireEvent.click(within(row).getByRole('button', { name: 'Verify Title of finding:1' }));
    expect(controller.askChange).toHaveBeenLastCalledWith('finding:1', 'verify', 'Title of finding:1');
    expect(controller.remove).not.toHaveBeenCalled();
    expect(controller.verify).not.toHaveBeenCalled();
    // finding:1 is a finding already: "to finding" does not apply to it; finding:2 (tool output) it does.
    expect((within(row).getByRole('button', { name: 'Promote Title of finding:1 to a finding' }) as HTMLButtonElement).disabled).toBe(true);
    const tool = within(screen.getByRole('list', { name: 'Included in L2' })).getByText('Title of finding:2').closest('li') as HTMLElement;
    fireEvent.click(within(tool).getByRole('button', { name: 'Promote Title of finding:2 to a finding' }));
    expect(controller.askChange).toHaveBeenLastCalledWith('finding:2', 'promote', 'Title of finding:2');
    const pinned = screen.getByText('Constraint A').closest('li') as HTMLElement;
    fireEvent.click(within(pinned).getByRole('button', { name: 'Unpin Constraint A' }));
    expect(controller.unpin).toHaveBeenCalledExactlyOnceWith('constraint:a');
    expect((within(pinned).getByRole('button', { name: 'Verify Constraint A' }) as HTMLButtonElement).disabled).toBe(true);

    act(() => store.getState().dispatch({ type: 'control.pending', key: 'item:finding:1', label: 'pin' }));
    expect((within(row).getByRole('button', { name: 'Pin Title of finding:1' }) as HTMLButtonElement).disabled).toBe(true);
    act(() => store.getState().dispatch({ type: 'control.failed', key: 'item:finding:1', label: 'pin', message: 'pin failed: No item finding:1 in the pool.' }));
    expect(within(row).getByRole('alert').textContent).toBe('pin failed: No item finding:1 in the pool.');
    expect((within(row).getByRole('button', { name: 'Pin Title of finding:1' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('a removed item is struck through and its controls are off', () => {
    const { store } = renderWithStore(<ContextInspector />, loaded());
    act(() => store.getState().dispatch({ type: 'event', event: { name: 'item.changed', payload: { change: 'removed', itemId: 'finding:2', item: null } } }));
    const row = screen.getByText('Title of finding:2').closest('li') as HTMLElement;
    expect(row.className).toContain('item--removed');
    expect(within(row).getByText('removed')).toBeTruthy();
    expect((within(row).getByRole('button', { name: /^Pin/ }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('the generation picker offers current and every generation and asks the controller', () => {
    const { controller } = renderWithStore(<ContextInspector />, loaded());
    const picker = screen.getByRole('combobox');
    expect([...(picker as HTMLSelectElement).options].map((o) => o.textContent)).toEqual(['current (g2)', 'g2', 'g1']);
    fireEvent.change(picker, { target: { value: '1' } });
    expect(controller.viewGeneration).toHaveBeenCalledExactlyOnceWith(1);
  });
});

describe('PromptView', () => {
  afterEach(cleanup);

  it('shows one layer at a time with the static prefix hash', () => {
    renderWithStore(<PromptView />, loaded());
    expect(screen.getByText(/static prefix \(L0\+L1\) hash/).textContent).toContain('cdcdcdcdcdcd…');
    expect(screen.getByLabelText('Prompt layer L0').textContent).toBe('You are a worker.');
    fireEvent.click(screen.getByRole('radio', { name: /L1/ }));
    expect(screen.getByLabelText('Prompt layer L1').textContent).toContain('Never log tokens.');
  });

  it('explains that only the current generation keeps its prompt', () => {
    renderWithStore(<PromptView />, loaded({ prompt: null }));
    expect(screen.getByText(/kept only for the agent’s current generation/)).toBeTruthy();
  });
});

describe('GenerationDiff and timeline', () => {
  afterEach(cleanup);

  it('shows added, dropped with reasons, the token delta and the refresh reason', () => {
    let s = loaded();
    s = reduce(s, { type: 'generation.diffPick', from: 1, to: 2 });
    s = reduce(s, { type: 'generation.diff', diff: makeDiff('auth-1', 1, 2) });
    const { controller } = renderWithStore(<GenerationDiff />, s);
    const summary = screen.getByText(/token delta/).closest('p') as HTMLElement;
    expect(summary.textContent).toBe('g1 → g2 · token delta −1.1k · refresh reason: context limit');
    expect(within(screen.getByRole('list', { name: 'Added' })).getByText('State carried')).toBeTruthy();
    expect(screen.getByRole('list', { name: 'Dropped in diff' }).textContent).toContain('reason: no longer in the pool (removed or dropped at refresh)');
    fireEvent.click(screen.getByRole('button', { name: 'Compare' }));
    expect(controller.diffGenerations).toHaveBeenCalledExactlyOnceWith(1, 2);
  });

  it('needs two generations, and shows a diff error as an alert', () => {
    let s = loaded();
    s = reduce(s, { type: 'generation.diffPick', from: 1, to: 2 });
    s = reduce(s, { type: 'generations.failed', agentId: 'auth-1', part: 'diff', message: 'Generation 7 of auth-1 does not exist.' });
    renderWithStore(<GenerationDiff />, s);
    expect(screen.getByRole('alert').textContent).toBe('Generation 7 of auth-1 does not exist.');
    cleanup();
    let one = stateWithAgents(demoTree());
    one = reduce(one, { type: 'agent.select', agentId: 'auth-1' });
    one = reduce(one, { type: 'generations.list', agentId: 'auth-1', generations: [makeSummary('auth-1', 1)] });
    renderWithStore(<GenerationDiff />, one);
    expect(screen.getByText('A diff needs two generations; this agent has one.')).toBeTruthy();
  });

  it('the timeline lists each boundary with its kind, reason and refresh line, live', () => {
    const { store, controller } = renderWithStore(<GenerationTimeline />, loaded());
    act(() => store.getState().dispatch({ type: 'event', event: generationStarted('auth-1', 3, 'manual refresh by an operator') }));
    const entries = screen.getAllByRole('listitem');
    expect(entries.map((li) => li.getAttribute('data-generation'))).toEqual(['1', '2', '3']);
    expect(entries[2]?.textContent).toContain('Context refreshed · Generation 2 → 3 · Reason: manual refresh by an operator');
    fireEvent.click(within(entries[2] as HTMLElement).getByRole('button', { name: 'diff with g2' }));
    expect(controller.diffGenerations).toHaveBeenCalledExactlyOnceWith(2, 3);
  });
});

describe('RunBar and agent controls', () => {
  afterEach(cleanup);

  it('run controls follow the run status and call one command each; a failure shows as an alert', () => {
    const s = reduce(loaded(), { type: 'runs.list', runs: [makeRun({ status: 'running' })] });
    const { controller, store } = renderWithStore(<RunBar />, s);
    const button = (name: RegExp) => screen.getByRole('button', { name }) as HTMLButtonElement;
    expect(button(/Start/).disabled).toBe(true);
    fireEvent.click(button(/Pause/));
    expect(controller.pauseRun).toHaveBeenCalledExactlyOnceWith('demo');
    fireEvent.click(button(/Step/));
    expect(controller.stepRun).toHaveBeenCalledExactlyOnceWith('demo');
    // Stop asks first; Cancel changes nothing, "Stop the run" stops it.
    fireEvent.click(button(/Stop/));
    expect(screen.getByRole('alertdialog', { name: 'Stop run demo?' }).textContent).toContain('The turn in flight is cancelled and commits nothing');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(controller.stopRun).not.toHaveBeenCalled();
    fireEvent.click(button(/Stop/));
    fireEvent.click(screen.getByRole('button', { name: 'Stop the run' }));
    expect(controller.stopRun).toHaveBeenCalledExactlyOnceWith('demo');
    act(() => store.getState().dispatch({ type: 'control.failed', key: 'run', label: 'stop', message: 'stop failed: No active run "demo".' }));
    expect(screen.getByRole('alert').textContent).toBe('stop failed: No active run "demo".');
    act(() => store.getState().dispatch({ type: 'run.result', run: makeRun({ status: 'stopped' }) }));
    expect(button(/Start/).disabled).toBe(false);
    fireEvent.click(button(/Start/));
    expect(controller.startRun).toHaveBeenCalledOnce();
  });

  it('the agent view puts refresh and rebuild on the agent, with the reason and the result line', () => {
    const { controller, store } = renderWithStore(<AgentView />, loaded());
    fireEvent.change(screen.getByLabelText('Refresh reason'), { target: { value: 'too many stale reads' } });
    fireEvent.click(screen.getByRole('button', { name: 'Refresh context' }));
    expect(controller.refresh).toHaveBeenCalledExactlyOnceWith('auth-1', 'too many stale reads');
    fireEvent.click(screen.getByRole('button', { name: 'Rebuild context' }));
    expect(controller.rebuild).toHaveBeenCalledExactlyOnceWith('auth-1');
    act(() => store.getState().dispatch({ type: 'control.done', key: 'agent:auth-1', label: 'refresh', message: 'Context refreshed · Generation 2 → 3 · Reason: too many stale reads' }));
    expect(screen.getByRole('status').textContent).toBe('Context refreshed · Generation 2 → 3 · Reason: too many stale reads');
    fireEvent.click(screen.getByRole('tab', { name: 'Timeline' }));
    expect(screen.getByRole('list', { name: 'Generations timeline' })).toBeTruthy();
  });
});
