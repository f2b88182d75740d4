import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentTree } from '../../../../renderer/views/AgentTree';
import { agentUpdated, demoTree, makeAgent, stateWithAgents } from '../fixtures';
import { renderWithStore } from '../renderWithStore';

const visibleRows = () => screen.queryAllByRole('treeitem').map((li) => `${li.getAttribute('data-agent-id')}@${li.getAttribute('aria-level')}`);
const row = (id: string) => screen.getAllByRole('treeitem').find((li) => li.getAttribute('data-agent-id') === id) as HTMLElement;

describe('AgentTree', () => {
  afterEach(cleanup);

  it('renders one treeitem per visible agent, depth-first, with aria-level = depth + 1', () => {
    renderWithStore(<AgentTree />, stateWithAgents(demoTree()));
    expect(visibleRows()).toEqual(['primary@1', 'auth-1@2', 'probe-1@3', 'auth-2@2', 'review@2']);
    expect(within(row('auth-2')).getByText('g3')).toBeTruthy();
  });

  it('marks the selected agent and which rows are expandable', () => {
    renderWithStore(<AgentTree />, stateWithAgents(demoTree(), { selectedAgentId: 'auth-1' }));
    expect(row('auth-1').getAttribute('aria-selected')).toBe('true');
    expect(row('primary').getAttribute('aria-selected')).toBe('false');
    expect(row('auth-1').getAttribute('aria-expanded')).toBe('true');
    expect(row('probe-1').hasAttribute('aria-expanded')).toBe(false);
  });

  it('clicking an agent asks the controller to select its id', () => {
    const { controller } = renderWithStore(<AgentTree />, stateWithAgents(demoTree()));
    fireEvent.click(row('auth-2').querySelector('.tree__select') as HTMLElement);
    expect(controller.select).toHaveBeenCalledExactlyOnceWith('auth-2');
  });

  it('typing in the filter box narrows the rows to matches and their ancestors', () => {
    const { store } = renderWithStore(<AgentTree />, stateWithAgents(demoTree()));
    const box = screen.getByRole('searchbox', { name: 'Filter agents' });
    fireEvent.change(box, { target: { value: 'Probe' } });
    expect(store.getState().ui.filter).toBe('Probe');
    expect((box as HTMLInputElement).value).toBe('Probe');
    expect(visibleRows()).toEqual(['primary@1', 'auth-1@2', 'probe-1@3']);
    fireEvent.change(box, { target: { value: '' } });
    expect(visibleRows()).toHaveLength(5);
  });

  it('says so when nothing matches the filter', () => {
    renderWithStore(<AgentTree />, stateWithAgents(demoTree(), { filter: 'zzz' }));
    expect(visibleRows()).toEqual([]);
    expect(screen.getByText('No agent matches the filter.')).toBeTruthy();
  });

  it('says so when the workspace has no agents', () => {
    renderWithStore(<AgentTree />);
    expect(screen.getByText('No agents in this workspace yet.')).toBeTruthy();
  });

  it('the twisty collapses and expands an agent’s children', () => {
    renderWithStore(<AgentTree />, stateWithAgents(demoTree()));
    fireEvent.click(screen.getByRole('button', { name: 'Collapse auth-1' }));
    expect(visibleRows()).toEqual(['primary@1', 'auth-1@2', 'auth-2@2', 'review@2']);
    expect(row('auth-1').getAttribute('aria-expanded')).toBe('false');

    fireEvent.click(screen.getByRole('button', { name: 'Expand auth-1' }));
    expect(visibleRows()).toEqual(['primary@1', 'auth-1@2', 'probe-1@3', 'auth-2@2', 'review@2']);

    fireEvent.click(screen.getByRole('button', { name: 'Collapse primary' }));
    expect(visibleRows()).toEqual(['primary@1']);
  });

  it('a leaf has a disabled twisty and clicking the twisty does not select', () => {
    const { controller } = renderWithStore(<AgentTree />, stateWithAgents(demoTree()));
    expect((screen.getByRole('button', { name: 'Collapse probe-1' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Collapse auth-1' }));
    expect(controller.select).not.toHaveBeenCalled();
  });

  it('shows a live agent.updated event', () => {
    const { store } = renderWithStore(<AgentTree />, stateWithAgents(demoTree()));
    act(() => store.getState().dispatch({ type: 'event', event: agentUpdated(makeAgent('auth-3', { parent: 'auth-1' })) }));
    expect(visibleRows()).toEqual(['primary@1', 'auth-1@2', 'auth-3@3', 'probe-1@3', 'auth-2@2', 'review@2']);
  });
});
