import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { reduce } from '../../../../renderer/store/reduce';
import { RunBar } from '../../../../renderer/views/agent/RunBar';
import { ChartsView } from '../../../../renderer/views/ChartsView';
import { makeAgent, makeHealth, stateWithAgents } from '../fixtures';
import { renderWithStore } from '../renderWithStore';
import { stubResizeObserver } from '../resizeObserverStub';

beforeAll(stubResizeObserver);
afterEach(cleanup);

const workspace = (projectFolder: boolean) =>
  reduce(stateWithAgents([makeAgent('primary', { role: 'primary' })], { selectedAgentId: 'primary' }), { type: 'connection.health', health: makeHealth({ workspace: { name: 'acme', catalogPath: '/x', projectFolder } }) });

describe('[run-project-folder] an empty project folder says how to start a run of its own', () => {
  it('[run-project-folder] Start is off and the run bar says what a run needs (a key, an allowlist), never offering the demo', () => {
    renderWithStore(<RunBar />, workspace(true));
    const start = screen.getByRole('button', { name: '▶ Start' }) as HTMLButtonElement;
    expect(start.disabled).toBe(true);
    expect(start.title).not.toMatch(/Start the demo/);
    const note = screen.getByRole('note', { name: 'How to start a run' }).textContent ?? '';
    expect(note).toContain('not the demo');
    expect(note).toContain('ANTHROPIC_API_KEY');
    expect(note).toContain('[tools] allow');
  });

  it('[run-project-folder] the demo workspace keeps Start and no note', () => {
    renderWithStore(<RunBar />, workspace(false));
    expect((screen.getByRole('button', { name: '▶ Start' }) as HTMLButtonElement).disabled).toBe(false);
    expect(screen.queryByRole('note', { name: 'How to start a run' })).toBeNull();
  });

  it('[run-project-folder] the Charts caption speaks of the demo only in the demo', () => {
    renderWithStore(<ChartsView chartWidth={640} />, workspace(true));
    expect(screen.getByText(/Cache model only \(dashed\)/).textContent).not.toContain('demo');
    cleanup();
    renderWithStore(<ChartsView chartWidth={640} />, workspace(false));
    expect(screen.getByText(/Cache model only \(dashed\)/).textContent).toContain('the demo replays a recording');
  });
});
