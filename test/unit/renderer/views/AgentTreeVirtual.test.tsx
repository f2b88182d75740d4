import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentDto } from '../../../../engine/contract';
import { AgentTree, TREE_ROW_HEIGHT } from '../../../../renderer/views/AgentTree';
import { makeAgent, stateWithAgents } from '../fixtures';
import { renderWithStore } from '../renderWithStore';

/** A primary with 499 workers (ids padded so id order is numeric order). */
function bigTree(): AgentDto[] {
  const workers = Array.from({ length: 499 }, (_, i) => makeAgent(`w${String(i).padStart(3, '0')}`, { parent: 'primary', status: i % 5 === 0 ? 'failed' : 'running' }));
  return [makeAgent('primary', { role: 'primary' }), ...workers];
}

const ids = () => screen.queryAllByRole('treeitem').map((li) => li.getAttribute('data-agent-id'));

describe('AgentTree with hundreds of agents', () => {
  afterEach(cleanup);

  it('renders only the rows in view (plus overscan) of 500 agents, placed at their offsets', () => {
    renderWithStore(<AgentTree />, stateWithAgents(bigTree()));
    const rendered = ids();
    expect(rendered.length).toBeGreaterThan(10);
    expect(rendered.length).toBeLessThan(40);
    expect(rendered[0]).toBe('primary');
    expect(screen.getByRole('tree').style.height).toBe(`${500 * TREE_ROW_HEIGHT}px`);
    const third = screen.getAllByRole('treeitem')[2] as HTMLElement;
    expect(third.style.top).toBe(`${2 * TREE_ROW_HEIGHT}px`);
  });

  it('scrolling the viewport renders the rows that came into view', () => {
    const { container } = renderWithStore(<AgentTree />, stateWithAgents(bigTree()));
    const viewport = container.querySelector('.tree__viewport') as HTMLElement;
    act(() => {
      viewport.scrollTop = 300 * TREE_ROW_HEIGHT;
      fireEvent.scroll(viewport);
    });
    const rendered = ids();
    expect(rendered).toContain('w299');
    expect(rendered).not.toContain('primary');
    expect(rendered.length).toBeLessThan(40);
  });

  it('keyboard: arrows move focus row by row, End reaches the last agent, Enter selects it', () => {
    const { controller } = renderWithStore(<AgentTree />, stateWithAgents(bigTree(), { selectedAgentId: 'primary' }));
    const primary = screen.getAllByRole('treeitem')[0] as HTMLElement;
    expect(primary.tabIndex).toBe(0);
    act(() => primary.focus());
    fireEvent.keyDown(primary, { key: 'ArrowDown' });
    expect(document.activeElement?.getAttribute('data-agent-id')).toBe('w000');
    fireEvent.keyDown(document.activeElement as Element, { key: 'End' });
    expect(document.activeElement?.getAttribute('data-agent-id')).toBe('w498');
    expect(ids()).not.toContain('primary');
    fireEvent.keyDown(document.activeElement as Element, { key: 'Enter' });
    expect(controller.select).toHaveBeenCalledExactlyOnceWith('w498');
    fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowLeft' });
    expect(document.activeElement?.getAttribute('data-agent-id')).toBe('primary');
    fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowLeft' });
    expect(ids()).toEqual(['primary']);
    expect(screen.getAllByRole('treeitem')[0]?.getAttribute('aria-expanded')).toBe('false');
    fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowRight' });
    expect(ids().length).toBeGreaterThan(10);
  });

  it('the status chips filter the rows and show counts', () => {
    const { store } = renderWithStore(<AgentTree />, stateWithAgents(bigTree()));
    const failed = screen.getByRole('button', { name: /^failed/ });
    expect(failed.textContent).toContain('100');
    fireEvent.click(failed);
    expect(failed.getAttribute('aria-pressed')).toBe('true');
    expect(store.getState().ui.statusFilter).toEqual(['failed']);
    expect(ids().slice(0, 3)).toEqual(['primary', 'w000', 'w005']);
    fireEvent.click(screen.getByRole('button', { name: 'all' }));
    expect(store.getState().ui.statusFilter).toEqual([]);
  });
});
