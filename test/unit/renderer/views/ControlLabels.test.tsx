import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { reduce } from '../../../../renderer/store/reduce';
import { AgentControls } from '../../../../renderer/views/agent/AgentControls';
import { ItemControls } from '../../../../renderer/views/agent/ItemControls';
import { AgentTree } from '../../../../renderer/views/AgentTree';
import { demoTree, makeAgent, stateWithAgents } from '../fixtures';
import { makeItem } from '../generationFixtures';
import { renderWithStore } from '../renderWithStore';

describe('controls say what they do', () => {
  afterEach(cleanup);

  it('item controls have distinct names and a tooltip each: to finding (pool) is not to memory', () => {
    renderWithStore(<ItemControls item={makeItem('tool:1', { class: 'ephemeral', title: 'read a.ts' })} removed={false} pending={false} />);
    const group = screen.getByRole('group', { name: 'Controls of tool:1' });
    const buttons = within(group).getAllByRole('button') as HTMLButtonElement[];
    expect(buttons.map((b) => b.textContent)).toEqual(['pin', 'verify', 'to finding', 'to memory', 'remove']);
    expect(buttons.every((b) => b.title.length > 20)).toBe(true);
    expect(new Set(buttons.map((b) => b.title)).size).toBe(buttons.length);
    expect(within(group).getByRole('button', { name: 'Promote read a.ts to a finding' }).title).toMatch(/^Make it a finding: the pool keeps it/);
    expect(within(group).getByRole('button', { name: 'Promote read a.ts to memory' }).title).toMatch(/^Propose to project memory/);
  });

  it('refresh and rebuild say "context", and are off for an agent never built with the reason in their tooltip', () => {
    const s = stateWithAgents([...demoTree(), makeAgent('fresh-1', { parent: 'primary', generation: 0 })]);
    const { controller } = renderWithStore(<AgentControls agentId="fresh-1" />, s);
    for (const name of ['Refresh context', 'Rebuild context']) {
      const b = screen.getByRole('button', { name }) as HTMLButtonElement;
      expect(b.disabled).toBe(true);
      expect(b.title).toBe('Not built yet: this agent has no generation to refresh or rebuild; it builds at its first turn.');
      fireEvent.click(b);
    }
    expect(controller.refresh).not.toHaveBeenCalled();
    expect(controller.rebuild).not.toHaveBeenCalled();
    expect((screen.getByLabelText('Refresh reason') as HTMLInputElement).disabled).toBe(true);
  });

  it('an agent whose generation list loaded empty counts as never built, whatever its row says', () => {
    let s = reduce(stateWithAgents(demoTree()), { type: 'agent.select', agentId: 'auth-1' });
    s = reduce(s, { type: 'generations.list', agentId: 'auth-1', generations: [] });
    renderWithStore(<AgentControls agentId="auth-1" />, s);
    expect((screen.getByRole('button', { name: 'Refresh context' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('a built agent has them on, each with what it does', () => {
    const { controller } = renderWithStore(<AgentControls agentId="auth-1" />, stateWithAgents(demoTree()));
    const refresh = screen.getByRole('button', { name: 'Refresh context' }) as HTMLButtonElement;
    expect(refresh.title).toMatch(/^Refresh the context: carry the durable state/);
    expect((screen.getByRole('button', { name: 'Rebuild context' }) as HTMLButtonElement).title).toMatch(/^Rebuild the context: start a new generation now/);
    fireEvent.click(refresh);
    expect(controller.refresh).toHaveBeenCalledExactlyOnceWith('auth-1', undefined);
  });

  it('the tree has column headers with units', () => {
    renderWithStore(<AgentTree />, reduce(stateWithAgents(demoTree()), { type: 'agent.select', agentId: 'auth-1' }));
    const head = screen.getByRole('group', { name: 'Tree columns' });
    // A column may carry a long and a short header (the narrow tree shows the short one, CSS hides the other).
    expect([...head.children].map((c) => (c.querySelector('.tree__col-long') ?? c).textContent)).toEqual(['agent', 'role', 'status', 'gen', 'context %', 'hit %']);
    expect((head.children[5] as HTMLElement).title).toMatch(/cache hit rate/);
  });
});
