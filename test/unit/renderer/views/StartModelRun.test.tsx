import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProviderSettingsDto } from '../../../../engine/contract';
import { reduce } from '../../../../renderer/store/reduce';
import { RunBar } from '../../../../renderer/views/agent/RunBar';
import { makeHealth, stateWithAgents } from '../fixtures';
import { makeRun } from '../generationFixtures';
import { renderWithStore } from '../renderWithStore';

afterEach(cleanup);

const folder = (projectFolder = true) => reduce(stateWithAgents([]), { type: 'connection.health', health: makeHealth({ workspace: { name: 'acme', catalogPath: '/x', projectFolder } }) });
const settings = (over: Partial<Record<'openai' | 'anthropic', Partial<ProviderSettingsDto>>> = {}): ProviderSettingsDto[] => [
  { provider: 'openai', baseUrl: null, model: null, keyPresent: false, ...over.openai },
  { provider: 'anthropic', baseUrl: null, model: null, keyPresent: false, ...over.anthropic },
];

/** The run bar of a project folder with its model-run form opened from the note; the host's settings as given. */
async function openForm(providers: ProviderSettingsDto[] = settings()) {
  const rendered = renderWithStore(<RunBar />, folder());
  rendered.controller.loadProviderSettings.mockResolvedValue({ providers });
  fireEvent.click(within(screen.getByRole('note', { name: 'How to start a run' })).getByRole('button', { name: 'Start a model run…' }));
  const form = screen.getByRole('form', { name: 'Start a model run' });
  await screen.findByText(/is (not )?set/);
  return { ...rendered, form };
}

const field = (name: string) => screen.getByLabelText(name === 'Task' ? /^Task/ : name) as HTMLInputElement & HTMLSelectElement & HTMLTextAreaElement;
const needs = () => screen.getByRole('region', { name: 'What this run needs' }).textContent ?? '';

describe('[run-model-form] the form that starts a model run in a project folder', () => {
  it('[run-model-form] the run bar and the note both open it; it has a labelled provider, model and task, the task focused; the demo has none', async () => {
    const { form } = await openForm();
    expect(field('Provider').value).toBe('anthropic');
    expect(field('Model').value).toBe('claude-sonnet-4-5');
    expect(field('Task').tagName).toBe('TEXTAREA');
    expect(document.activeElement).toBe(field('Task'));
    expect(within(form).getByRole('button', { name: '▶ Start model run' })).toBeTruthy();
    // The note gives way to the form; the run bar's button says the form is open and closes it.
    expect(screen.queryByRole('note', { name: 'How to start a run' })).toBeNull();
    const opener = screen.getByRole('button', { name: 'New model run…' });
    expect(opener.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(opener);
    expect(screen.queryByRole('form', { name: 'Start a model run' })).toBeNull();
    fireEvent.click(opener);
    expect(screen.getByRole('form', { name: 'Start a model run' })).toBeTruthy();
    cleanup();
    renderWithStore(<RunBar />, folder(false));
    expect(screen.queryByRole('button', { name: 'New model run…' })).toBeNull();
  });

  it('[run-model-form] the model follows the provider until edited, and an edit is kept per provider', async () => {
    await openForm();
    fireEvent.change(field('Provider'), { target: { value: 'openai' } });
    expect(field('Model').value).toBe('gpt-5-mini');
    fireEvent.change(field('Model'), { target: { value: 'qwen3-coder' } });
    fireEvent.change(field('Provider'), { target: { value: 'anthropic' } });
    expect(field('Model').value).toBe('claude-sonnet-4-5');
    fireEvent.change(field('Provider'), { target: { value: 'openai' } });
    expect(field('Model').value).toBe('qwen3-coder');
  });

  it('[run-model-form] says before sending which key the provider needs and whether the host has it, and where calls go', async () => {
    await openForm(settings({ openai: { keyPresent: true, baseUrl: 'http://127.0.0.1:8000/v1' } }));
    expect(needs()).toContain('✗ ANTHROPIC_API_KEY is not set, so the host will refuse this run');
    expect(needs()).toContain('restart Strata');
    expect(needs()).toContain('Calls go to Anthropic’s own API; set ANTHROPIC_BASE_URL');
    expect(needs()).toContain('[tools] allow');
    fireEvent.change(field('Provider'), { target: { value: 'openai' } });
    expect(needs()).toContain('✓ OPENAI_API_KEY is set in the host’s environment.');
    expect(needs()).toContain('Calls go to http://127.0.0.1:8000/v1 (OPENAI_BASE_URL).');
    expect(needs()).not.toContain('not set');
  });

  it('[run-model-form] an empty task is refused in the form and nothing is sent; an overlong one is kept whole, not cut', async () => {
    const { form, controller } = await openForm();
    fireEvent.submit(form);
    expect(screen.getByRole('alert').textContent).toBe('Type the task first: it is empty, and a run needs something to do.');
    fireEvent.change(field('Task'), { target: { value: '   ' } });
    fireEvent.click(within(form).getByRole('button', { name: '▶ Start model run' }));
    expect(screen.getByRole('alert').textContent).toMatch(/^Type the task first/);
    const long = 'y'.repeat(4005);
    fireEvent.change(field('Task'), { target: { value: long } });
    expect(screen.getByText('4,005 / 4,000 characters')).toBeTruthy();
    fireEvent.submit(form);
    expect(screen.getByRole('alert').textContent).toBe('The task is 4,005 characters; a run takes up to 4,000. Shorten it (nothing was sent).');
    expect(field('Task').value).toBe(long);
    expect(controller.startModelRun).not.toHaveBeenCalled();
  });

  it('[run-model-form] a refusal of the host is shown in the form, which keeps what was typed', async () => {
    const { form, controller } = await openForm();
    const refusal = 'Not started: the host has no Anthropic key. Set ANTHROPIC_API_KEY in the environment Strata is started from, then restart Strata (a key is never typed here).';
    controller.startModelRun.mockResolvedValueOnce({ error: refusal });
    fireEvent.change(field('Task'), { target: { value: 'Fix the leap-day bug.\nRun the tests.' } });
    await act(async () => {
      fireEvent.submit(form);
    });
    expect(controller.startModelRun).toHaveBeenCalledExactlyOnceWith({ provider: 'anthropic', model: 'claude-sonnet-4-5', task: 'Fix the leap-day bug.\nRun the tests.' });
    expect(screen.getByRole('alert').textContent).toBe(refusal);
    expect(field('Task').value).toBe('Fix the leap-day bug.\nRun the tests.');
    expect(screen.getByRole('form', { name: 'Start a model run' })).toBeTruthy();
  });

  it('[run-model-form] a started run closes the form; Escape closes it and gives the focus back to the run bar', async () => {
    const { form, controller, store } = await openForm();
    fireEvent.keyDown(field('Task'), { key: 'Escape' });
    expect(screen.queryByRole('form', { name: 'Start a model run' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'New model run…' }));
    expect(form.isConnected).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'New model run…' }));
    const run = makeRun({ runId: 'run-1', driver: 'model', label: 'Fix it', agents: 1, turns: 0 });
    controller.startModelRun.mockImplementationOnce(async () => {
      store.getState().dispatch({ type: 'run.result', run });
      return { run };
    });
    fireEvent.change(field('Task'), { target: { value: 'Fix it' } });
    await act(async () => {
      fireEvent.submit(screen.getByRole('form', { name: 'Start a model run' }));
    });
    expect(screen.queryByRole('form', { name: 'Start a model run' })).toBeNull();
    expect((screen.getByRole('button', { name: 'New model run…' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByRole('group', { name: 'Run controls' }).textContent).toContain('run-1 running');
  });
});
