import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { reduce } from '../../../../renderer/store/reduce';
import { AgentControls } from '../../../../renderer/views/agent/AgentControls';
import { RunBar } from '../../../../renderer/views/agent/RunBar';
import { agentUpdated, demoTree, makeAgent, stateWithAgents } from '../fixtures';
import { makeRun } from '../generationFixtures';
import { renderWithStore } from '../renderWithStore';

const withRun = (over: Parameters<typeof makeRun>[0]) => reduce(stateWithAgents(demoTree()), { type: 'runs.list', runs: [makeRun(over)] });
const button = (name: RegExp | string) => screen.getByRole('button', { name }) as HTMLButtonElement;

describe('RunBar', () => {
  afterEach(cleanup);

  it('[run-progress] the turn and agent counts follow the run as it moves, not the page-load values', () => {
    const { store } = renderWithStore(<RunBar />, withRun({ status: 'running', turns: 69, agents: 8 }));
    const label = () => (screen.getByRole('group', { name: 'Run controls' }).querySelector('.runbar__label') as HTMLElement).textContent;
    expect(label()).toContain('turn 69 · 8 agents');
    act(() => store.getState().dispatch({ type: 'event', event: { name: 'run.progress', payload: { run: makeRun({ status: 'running', turns: 212, agents: 9 }) } } }));
    expect(label()).toContain('turn 212 · 9 agents');
  });

  it('[run-resume] a paused run offers Resume in place of Pause, and Resume asks the host to resume it', () => {
    const { store, controller } = renderWithStore(<RunBar />, withRun({ status: 'running' }));
    expect(screen.queryByRole('button', { name: /Resume/ })).toBeNull();
    act(() => store.getState().dispatch({ type: 'run.result', run: makeRun({ status: 'paused' }) }));
    expect(screen.queryByRole('button', { name: /Pause/ })).toBeNull();
    expect(button(/Start/).disabled).toBe(true);
    expect(button(/Step/).disabled).toBe(false);
    fireEvent.click(button(/Resume/));
    expect(controller.resumeRun).toHaveBeenCalledExactlyOnceWith('demo');
    act(() => store.getState().dispatch({ type: 'control.pending', key: 'run', label: 'resume' }));
    expect(button(/Resume/).disabled).toBe(true);
  });
});

describe('AgentControls: the agent in the run', () => {
  afterEach(cleanup);

  it('[run-resume] pauses a running agent, resumes a paused one, and cancels only after a second, explicit click', () => {
    const { store, controller } = renderWithStore(<AgentControls agentId="auth-1" />, stateWithAgents(demoTree()));
    fireEvent.click(button(/Pause agent/));
    expect(controller.controlAgent).toHaveBeenCalledExactlyOnceWith('auth-1', 'pause');
    act(() => store.getState().dispatch({ type: 'event', event: agentUpdated(makeAgent('auth-1', { parent: 'primary', status: 'paused', revision: 99 })) }));
    expect(screen.queryByRole('button', { name: /Pause agent/ })).toBeNull();
    fireEvent.click(button(/Resume agent/));
    expect(controller.controlAgent).toHaveBeenLastCalledWith('auth-1', 'resume');

    fireEvent.click(button(/Cancel agent/));
    expect(controller.controlAgent).toHaveBeenCalledTimes(2);
    fireEvent.click(button('Keep it'));
    expect(screen.queryByRole('button', { name: /for good/ })).toBeNull();
    fireEvent.click(button(/Cancel agent/));
    fireEvent.click(button('Cancel auth-1 for good'));
    expect(controller.controlAgent).toHaveBeenLastCalledWith('auth-1', 'cancel');
  });

  it('an agent that is done or failed cannot be paused or cancelled', () => {
    renderWithStore(<AgentControls agentId="done-1" />, stateWithAgents([makeAgent('done-1', { status: 'done' })]));
    const group = screen.getByRole('group', { name: 'Agent in the run' });
    expect((within(group).getByRole('button', { name: /Pause agent/ }) as HTMLButtonElement).disabled).toBe(true);
    expect((within(group).getByRole('button', { name: /Cancel agent/ }) as HTMLButtonElement).disabled).toBe(true);
  });
});
