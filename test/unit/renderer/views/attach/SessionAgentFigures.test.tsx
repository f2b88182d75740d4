import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { reduce } from '../../../../../renderer/store/reduce';
import { AgentPane } from '../../../../../renderer/views/AgentPane';
import { makeAgent, stateWithAgents } from '../../fixtures';
import { renderWithStore } from '../../renderWithStore';
import { stubResizeObserver } from '../../resizeObserverStub';

beforeAll(stubResizeObserver);
afterEach(cleanup);

/** The agent pane of session ses-1's main agent: Claude Code at 152k of its 200k window, Strata's replay at 90k of its 100k budget. */
function pane(recorded: NonNullable<Parameters<typeof makeAgent>[1]>['recorded']) {
  let s = stateWithAgents([makeAgent('ses-1', { role: 'primary', sessionId: 'ses-1', tokens: 90_000, budget: 100_000, generation: 2, recorded })]);
  s = reduce(s, { type: 'agent.select', agentId: 'ses-1' });
  return renderWithStore(<AgentPane />, s);
}

describe('[live-windows] a session agent\'s real and Strata figures are told apart', () => {
  it('[live-windows] the real client\'s context is against its own window, Strata\'s against the replay budget, each named; nothing reads 152%', () => {
    pane({ client: 'Claude Code', tokens: 152_000, window: 200_000, windowSource: 'model' });
    const real = screen.getByRole('meter', { name: "Claude Code's context (real) against its 200k window" });
    expect(real.textContent).toBe('76%');
    const strata = screen.getByRole('meter', { name: "Strata's replay context against its 100k replay budget" });
    expect(strata.textContent).toBe('90%');
    expect(document.body.textContent).not.toContain('152%');
    expect(document.querySelector('[data-figure="recorded"]')?.textContent).toBe("152k / 200k tokens of its context window (the model's standard window)");
    expect(document.querySelector('[data-figure="strata"]')?.textContent).toBe('generation 2 · 90k / 100k tokens of the replay budget');
    expect(screen.getByText('Strata generation 2')).toBeTruthy();
    expect(screen.getByText('Claude Code hit', { exact: false })).toBeTruthy();
  });

  it('[live-windows] a window nobody recorded is said to be unknown, never replaced by the replay budget', () => {
    pane({ client: null, tokens: 152_000, window: null, windowSource: null });
    expect(screen.getAllByRole('meter').map((m) => m.getAttribute('aria-label'))).toEqual(["Strata's replay context against its 100k replay budget"]);
    expect(document.querySelector('[data-figure="recorded"]')?.textContent).toBe('152k tokens (window unknown)');
    expect(screen.getByText('the recording agent context')).toBeTruthy();
  });

  it('a native agent keeps one context figure against its budget', () => {
    let s = stateWithAgents([makeAgent('auth-1', { tokens: 30_000, budget: 64_000 })]);
    s = reduce(s, { type: 'agent.select', agentId: 'auth-1' });
    renderWithStore(<AgentPane />, s);
    expect(screen.getAllByRole('meter').map((m) => m.getAttribute('aria-label'))).toEqual(['context utilization']);
    expect(document.querySelector('[data-figure]')).toBeNull();
  });
});
