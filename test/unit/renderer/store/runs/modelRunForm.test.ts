import { describe, expect, it } from 'vitest';
import { defaultModelOf, modelRunProblem } from '../../../../../renderer/store/runs/modelRunForm';
import { startRunErrorText } from '../../../../../renderer/store/runs/startRunErrorText';

describe('[run-model-form] the model-run form\'s own checks and the host\'s refusals in words', () => {
  it.each([
    ['an empty task', { model: 'gpt-5-mini', task: '' }, 'Type the task first: it is empty, and a run needs something to do.'],
    ['a task of blanks only', { model: 'gpt-5-mini', task: ' \n\t ' }, 'Type the task first: it is empty, and a run needs something to do.'],
    ['a task over the cap', { model: 'gpt-5-mini', task: 'x'.repeat(4001) }, 'The task is 4,001 characters; a run takes up to 4,000. Shorten it (nothing was sent).'],
    ['an empty model', { model: '  ', task: 'fix it' }, 'Name the model first: the model field is empty.'],
    ['a model name over the cap', { model: 'm'.repeat(201), task: 'fix it' }, 'The model name is 201 characters; a model name is at most 200.'],
  ])('[run-model-form] refuses %s before anything is sent', (_, values, text) => {
    expect(modelRunProblem(values)).toBe(text);
  });

  it('[run-model-form] takes a task at the cap and a model name at its cap', () => {
    expect(modelRunProblem({ model: 'm'.repeat(200), task: 'x'.repeat(4000) })).toBeNull();
  });

  it('[run-model-form] the model offered is the host\'s for the provider when its settings name one, else the provider\'s default', () => {
    const settings = [{ provider: 'openai' as const, baseUrl: 'http://127.0.0.1:1', model: 'qwen3-coder', keyPresent: true }];
    expect(defaultModelOf('openai', settings)).toBe('qwen3-coder');
    expect(defaultModelOf('anthropic', settings)).toBe('claude-sonnet-4-5');
    expect(defaultModelOf('openai', [])).toBe('gpt-5-mini');
  });

  it.each([
    ['another refusal of the host, kept in its words', { code: 'unavailable', message: 'Model runs need a workspace folder (--workspace) with provider settings.' }, 'Not started: Model runs need a workspace folder (--workspace) with provider settings.'],
    ['a fault in the host, without the command\'s name', { code: 'internal', message: '"startRun" failed: disk full.' }, 'Not started: the host failed to start the run (disk full).'],
    ['a call that never reached the host', { message: 'The connection to the host is closed.' }, 'The run could not be sent to the host (The connection to the host is closed); check the connection and start again.'],
    ['an argument the form has no field for', { code: 'invalid_args', message: 'Invalid arguments for "startRun": tickMs: Too big', issues: [{ path: 'tickMs', message: 'Too big: expected number to be <=60000' }] }, 'The host did not accept the form as sent; check the fields and start again.'],
  ])('[run-model-form] says %s', (_, err, text) => {
    const said = startRunErrorText('openai', err);
    expect(said).toBe(text);
    expect(said).not.toMatch(/"startRun"|Invalid arguments|tickMs|Too big/);
  });
});
