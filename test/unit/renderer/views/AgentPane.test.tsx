import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { RootState } from '../../../../renderer/store/reduce';
import { AgentPane } from '../../../../renderer/views/AgentPane';
import { agentUpdated, demoTree, makeAgent, makeLogEntry, stateWithAgents } from '../fixtures';
import { logLineText, renderWithStore } from '../renderWithStore';

const withLog = (s: RootState): RootState => ({
  ...s,
  log: {
    entries: [
      makeLogEntry(1, { agentId: 'auth-2', message: 'auth-2 compacted generation 2' }),
      makeLogEntry(2, { agentId: 'auth-1', message: 'auth-1 read the callback' }),
      makeLogEntry(3, { agentId: null, message: 'workspace opened' }),
      makeLogEntry(4, { agentId: 'auth-2', message: 'auth-2 refreshed to generation 3', level: 'warn' }),
    ],
  },
});

describe('AgentPane', () => {
  afterEach(cleanup);

  it('asks for a selection when none is made', () => {
    renderWithStore(<AgentPane />, stateWithAgents(demoTree()));
    expect(screen.getByText('Select an agent in the tree.')).toBeTruthy();
  });

  it("shows the selected agent's task, generation and only its own log lines, oldest first", () => {
    renderWithStore(<AgentPane />, withLog(stateWithAgents(demoTree(), { selectedAgentId: 'auth-2' })));
    const pane = screen.getByRole('region', { name: 'Agent auth-2' });
    expect(within(pane).getByText('Session storage')).toBeTruthy();
    expect(within(pane).getByText('generation 3')).toBeTruthy();
    const lines = within(screen.getByRole('list', { name: 'Log of auth-2' })).getAllByRole('listitem');
    expect(lines.map(logLineText)).toEqual(['auth-2 compacted generation 2', 'auth-2 refreshed to generation 3']);
    expect(lines[1]?.className).toContain('log__line--warn');
  });

  it('lists children and the parent, and selecting one goes through the controller', () => {
    const { controller } = renderWithStore(<AgentPane />, stateWithAgents(demoTree(), { selectedAgentId: 'auth-1' }));
    fireEvent.click(screen.getByRole('button', { name: 'probe-1' }));
    fireEvent.click(screen.getByRole('button', { name: 'primary' }));
    expect(controller.select.mock.calls).toEqual([['probe-1'], ['primary']]);
  });

  it('follows live updates of the selected agent', () => {
    const { store } = renderWithStore(<AgentPane />, stateWithAgents(demoTree(), { selectedAgentId: 'auth-2' }));
    act(() =>
      store.getState().dispatch({
        type: 'event',
        event: agentUpdated(makeAgent('auth-2', { parent: 'primary', task: 'Session storage', generation: 4, revision: 2 })),
      }),
    );
    expect(screen.getByText('generation 4')).toBeTruthy();
    expect(screen.queryByText('generation 3')).toBeNull();
  });
});
