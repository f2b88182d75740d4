import { describe, expect, it } from 'vitest';
import { importAtifTrajectory } from '../../../../engine/traces/atifTrajectory';
import type { TraceEvent } from '../../../../engine/traces/TraceEvent';

/** A made-up trajectory in ATIF's shape (the RFC's schema, v1.4 to v1.6). */
const FILE = 'trial/agent/trajectory.json';
const trajectory = (steps: object[], extra: object = {}) =>
  JSON.stringify({ schema_version: 'ATIF-v1.6', session_id: 'run-1', agent: { name: 'made-up-agent', version: '0.1', model_name: 'model-made-up' }, steps, final_metrics: { total_prompt_tokens: 1, total_steps: steps.length }, ...extra }, null, 2);
const shape = (events: TraceEvent[]) => events.map((e) => [e.type, e.step ?? null]);

describe('atif-trajectory-json importer', () => {
  it('[trace-atif] system, user and agent steps: each agent step is one LLM call with its calls, metrics and observation results', () => {
    const text = trajectory([
      { step_id: 1, source: 'system', message: 'You are an agent.' },
      { step_id: 2, timestamp: '2026-02-01T10:00:00Z', source: 'user', message: 'Count the files.' },
      {
        step_id: 3,
        timestamp: '2026-02-01T10:00:02Z',
        source: 'agent',
        model_name: 'model-step',
        message: 'Listing.',
        reasoning_content: 'I should list.',
        tool_calls: [
          { tool_call_id: 'c1', function_name: 'bash', arguments: { command: 'ls' } },
          { tool_call_id: 'c2', function_name: 'bash', arguments: { command: 'ls -a' } },
        ],
        observation: { results: [{ source_call_id: 'c1', content: 'a\nb' }, { source_call_id: 'c2', content: [{ type: 'text', text: '.\na\nb' }, { type: 'image', source: { path: 'x.png' } }] }] },
        metrics: { prompt_tokens: 1000, completion_tokens: 40, cached_tokens: 600, cost_usd: 0.01, extra: { cache_creation_input_tokens: 300 } },
      },
      { step_id: 4, source: 'agent', message: 'Two files.', metrics: { prompt_tokens: 1200, completion_tokens: 5 } },
    ]);
    const { events, format, skipped } = importAtifTrajectory(text, FILE);
    expect(format).toBe('atif-trajectory-json');
    expect(shape(events)).toEqual([
      ['instructions', null],
      ['user_input', null],
      ['assistant_text', 0],
      ['tool_call', 0],
      ['tool_call', 0],
      ['usage', 0],
      ['tool_result', null],
      ['tool_result', null],
      ['assistant_text', 1],
      ['usage', 1],
    ]);
    expect(events[3]).toMatchObject({ callId: 'c1', name: 'bash', arguments: '{"command":"ls"}', at: '2026-02-01T10:00:02.000Z', source: { file: FILE, path: 'steps[2]' } });
    expect(events[7]).toMatchObject({ type: 'tool_result', callId: 'c2', content: '.\na\nb\n[image]', isError: false });
    // prompt_tokens holds the cached tokens and the cache writes: input is what is left
    expect(events[5]).toMatchObject({ type: 'usage', input: 100, cacheRead: 600, cacheWrite: 300, output: 40, model: 'model-step' });
    expect(events[9]).toMatchObject({ input: 1200, cacheRead: 0, cacheWrite: 0, output: 5, model: 'model-made-up' });
    expect(skipped).toMatchObject({ final_metrics: 1, reasoning_content: 1 });
    expect(text.split('\n')[(events[2]?.source.line ?? 0) - 1]).toMatch(/^ {4}\{$/);
  });

  it('[trace-atif] a result answering no call is the feedback the model reads next (user input); a subagent reference alone is skipped', () => {
    const text = trajectory([
      { step_id: 1, source: 'user', message: [{ type: 'text', text: 'Do it.' }] },
      { step_id: 2, source: 'agent', message: 'echo hi', observation: { results: [{ content: 'hi' }] } },
      { step_id: 3, source: 'agent', message: '', tool_calls: [{ tool_call_id: 'd1', function_name: 'delegate', arguments: {} }], observation: { results: [{ source_call_id: 'd1', subagent_trajectory_ref: [{ session_id: 'sub-1' }] }] } },
    ]);
    const { events, skipped } = importAtifTrajectory(text, FILE);
    expect(shape(events)).toEqual([
      ['user_input', null],
      ['assistant_text', 0],
      ['user_input', null],
      ['tool_call', 1],
    ]);
    expect(events[0]).toMatchObject({ text: 'Do it.' });
    expect(events[2]).toMatchObject({ text: 'hi', source: { path: 'steps[1]' } });
    expect(skipped['subagent_trajectory_ref']).toBe(1);
  });

  it('[trace-atif] a truncated file names its line; a step without a source and a call without an id name their step', () => {
    const text = trajectory([{ step_id: 1, source: 'user', message: 'go' }]);
    const cut = text.slice(0, text.indexOf('"go"') + 2);
    expect(() => importAtifTrajectory(cut, FILE)).toThrow(new RegExp(`^trial/agent/trajectory\\.json:${cut.split('\n').length}:\\d+: not valid JSON: unterminated string`));
    expect(() => importAtifTrajectory(trajectory([{ step_id: 1, message: 'x' }]), FILE)).toThrow(/:\d+: steps\[0\] is not a step with a string source$/);
    expect(() => importAtifTrajectory(trajectory([{ step_id: 1, source: 'agent', message: '', tool_calls: [{ function_name: 'x' }] }]), FILE)).toThrow('steps[0].tool_calls[0] has no tool_call_id');
    expect(() => importAtifTrajectory('{"schema_version": "ATIF-v1.6"}', FILE)).toThrow(`${FILE}:1: expected an ATIF trajectory`);
  });
});
