import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { reduce, type RootState } from '../../../../renderer/store/reduce';
import { ContextInspector } from '../../../../renderer/views/agent/ContextInspector';
import { demoTree, stateWithAgents } from '../fixtures';
import { makeGeneration, makeSummary } from '../generationFixtures';
import { renderWithStore } from '../renderWithStore';

function loaded(): RootState {
  let s = stateWithAgents(demoTree(), { selectedAgentId: null });
  s = reduce(s, { type: 'agent.select', agentId: 'auth-1' });
  s = reduce(s, { type: 'generations.list', agentId: 'auth-1', generations: [makeSummary('auth-1', 1), makeSummary('auth-1', 2)] });
  return reduce(s, { type: 'generation.detail', detail: makeGeneration('auth-1', 2) });
}

describe('irreversible item controls ask first', () => {
  afterEach(cleanup);

  it('[change-preview] the question names the agents that start a new generation and what their cache loses; the control runs only on yes', () => {
    const { store, controller } = renderWithStore(<ContextInspector />, loaded());
    act(() => store.getState().dispatch({ type: 'control.ask', itemId: 'constraint:a', change: 'remove', title: 'Constraint A' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Remove “Constraint A” from the pool?' });
    expect(within(dialog).getByRole('status').textContent).toBe('Checking which agents this touches…');
    expect((within(dialog).getByRole('button', { name: 'Remove' }) as HTMLButtonElement).disabled).toBe(true);
    act(() =>
      store.getState().dispatch({
        type: 'control.preview',
        itemId: 'constraint:a',
        change: 'remove',
        agents: [
          { agentId: 'primary', generation: 2, layer: 'L1', when: 'next build', promptTokens: 3000, lostTokens: 2700 },
          { agentId: 'auth-1', generation: 2, layer: 'L1', when: 'next build', promptTokens: 520, lostTokens: 470 },
        ],
      }),
    );
    expect(within(dialog).getByRole('status').textContent).toBe('2 agents affected; their caches lose 3.2k tokens in all.');
    const primary = within(dialog).getByRole('table', { name: 'Agents affected' }).querySelector('[data-agent-id="primary"]') as HTMLElement;
    expect(primary.textContent).toBe('primaryg2 · L1new generation at its next build2.7k of 3k (90%)');
    expect(dialog.textContent).toContain('Removing cannot be undone here');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(controller.confirmChange).toHaveBeenCalledOnce();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(controller.cancelChange).toHaveBeenCalledOnce();
  });

  it('says when no agent holds the item, and shows a failed preview', () => {
    const { store } = renderWithStore(<ContextInspector />, loaded());
    act(() => store.getState().dispatch({ type: 'control.ask', itemId: 'finding:1', change: 'verify', title: 'Title of finding:1' }));
    act(() => store.getState().dispatch({ type: 'control.preview', itemId: 'finding:1', change: 'verify', agents: [] }));
    const dialog = screen.getByRole('alertdialog', { name: 'Verify “Title of finding:1”?' });
    expect(dialog.textContent).toContain('No agent’s current generation holds it');
    expect(dialog.textContent).toContain('Verifying cannot be undone');
    // A late preview of another question does not land here.
    act(() => store.getState().dispatch({ type: 'control.previewFailed', itemId: 'finding:2', change: 'verify', message: 'The preview failed: boom' }));
    expect(within(dialog).queryByRole('alert')).toBeNull();
    act(() => store.getState().dispatch({ type: 'control.previewFailed', itemId: 'finding:1', change: 'verify', message: 'The preview failed: No item "finding:1" in the pool.' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('The preview failed: No item "finding:1" in the pool.');
    act(() => store.getState().dispatch({ type: 'control.askClose' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});
