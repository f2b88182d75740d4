import { describe, expect, it } from 'vitest';
import { importClaudeCode } from '../../../../../engine/traces/claudeCode';
import { importCodexRollout } from '../../../../../engine/traces/codexRollout';
import { chooseWindow, largestRecordedPrompt, recordedWindow, windowCell, windowLabel } from '../../../../../engine/traces/replay/replayWindow';
import type { TraceEvent, UsageEvent } from '../../../../../engine/traces/TraceEvent';

const source = { file: 'made-up.jsonl', line: 1 };
const jsonl = (...records: object[]): string => records.map((r) => JSON.stringify(r)).join('\n') + '\n';
const usage = (prompt: number, extra: Partial<UsageEvent> = {}): TraceEvent => ({ type: 'usage', input: prompt, cacheRead: 0, cacheWrite: 0, output: 1, step: 0, source, ...extra });
const usages = (events: readonly TraceEvent[]) => events.filter((e): e is UsageEvent => e.type === 'usage');

describe('[trace-recorded-window] the window a recording states', () => {
  const codexLine = (type: string, payload: object, s: number) => ({ timestamp: new Date(Date.UTC(2026, 0, 3, 9, 0, s)).toISOString(), type, payload });

  it('[trace-recorded-window] Codex: model_context_window of task_started is on every usage event after it; a rollout without one has none', () => {
    const turn = (s: number, window?: number) => [
      codexLine('event_msg', { type: 'task_started', turn_id: `t${s}`, ...(window ? { model_context_window: window } : {}) }, s),
      codexLine('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: `task ${s}` }] }, s + 1),
      codexLine('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'ok' }] }, s + 2),
      codexLine('token_usage_record', { response_id: `r${s}`, usage: { input_tokens: 100 + s, cached_input_tokens: 0, output_tokens: 5 } }, s + 3),
    ];
    const head = [codexLine('session_meta', { id: 's', base_instructions: { text: 'You are Codex.' } }, 0), codexLine('turn_context', { model: 'gpt-5.4' }, 0)];
    const stated = usages(importCodexRollout(jsonl(...head, ...turn(1, 258_400), ...turn(10)), 'r.jsonl').events);
    expect(stated.map((u) => u.contextWindow)).toEqual([258_400, 258_400]);
    const none = usages(importCodexRollout(jsonl(...head, ...turn(1), ...turn(10)), 'r.jsonl').events);
    expect(none.map((u) => 'contextWindow' in u)).toEqual([false, false]);
  });

  it('[trace-recorded-window] Codex: token_count info states it too (older rollouts)', () => {
    const count = (s: number, input: number) => codexLine('event_msg', { type: 'token_count', info: { total_token_usage: { input_tokens: input, cached_input_tokens: 0, output_tokens: 1 }, last_token_usage: { input_tokens: input, cached_input_tokens: 0, output_tokens: 1 }, model_context_window: 272_000 } }, s);
    const text = jsonl(codexLine('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] }, 0), codexLine('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'a' }] }, 1), count(2, 50));
    expect(usages(importCodexRollout(text, 'r.jsonl').events).map((u) => u.contextWindow)).toEqual([272_000]);
  });

  it('[trace-recorded-window] Claude Code: a cost-state modelUsage entry that states contextWindow puts it on that model\'s usage events only', () => {
    const assistant = (id: string, model: string, s: number) => ({ type: 'assistant', uuid: `a${s}`, timestamp: `2026-11-20T10:00:0${s}.000Z`, message: { id, role: 'assistant', model, content: [{ type: 'text', text: 'x' }], usage: { input_tokens: 10, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 1 } } });
    const cost = { type: 'cost-state', timestamp: '2026-11-20T10:00:09.000Z', modelUsage: { 'claude-opus-5-5[1m]': { inputTokens: 20, outputTokens: 2, contextWindow: 1_000_000 }, 'claude-haiku-4-5': { inputTokens: 1, outputTokens: 1 } } };
    const text = jsonl({ type: 'user', uuid: 'u0', timestamp: '2026-11-20T10:00:00.000Z', message: { role: 'user', content: 'hi' } }, assistant('m1', 'claude-opus-5-5', 1), assistant('m2', 'claude-haiku-4-5', 2), cost);
    expect(usages(importClaudeCode(text, 'main.jsonl').events).map((u) => [u.model, u.contextWindow])).toEqual([
      ['claude-opus-5-5', 1_000_000],
      ['claude-haiku-4-5', undefined],
    ]);
  });

  it('[trace-recorded-window] recordedWindow reads the main agent\'s; a subagent\'s alone states nothing for the trace', () => {
    expect(recordedWindow([usage(10, { agentId: 'sub', contextWindow: 128_000 }), usage(10, { contextWindow: 258_400 })])).toBe(258_400);
    expect(recordedWindow([usage(10, { agentId: 'sub', contextWindow: 128_000 })])).toBeUndefined();
    expect(largestRecordedPrompt([usage(10), usage(250_000), usage(30, { agentId: 'sub', cacheRead: 900_000 })])).toBe(250_000);
  });
});

describe('[replay-window-default] the window a replay is held against', () => {
  it('[replay-window-default] the option wins over everything, and says so', () => {
    const w = chooseWindow([usage(10, { contextWindow: 258_400 })], 'gpt-5.4', 'recording', 150_000);
    expect(w).toMatchObject({ tokens: 150_000, source: 'option' });
    expect(windowLabel(w)).toBe('150,000: --window');
    expect(windowLabel(w, 'the window option')).toBe('150,000: the window option');
    expect(windowCell(w)).toBe('150,000 (--window)');
  });

  it('[replay-window-default] by default the window the recording states for its own model, over the table', () => {
    const w = chooseWindow([usage(226_874, { model: 'gpt-5.4', contextWindow: 258_400 })], 'gpt-5.4', 'recording');
    expect(w).toMatchObject({ tokens: 258_400, source: 'recording', model: 'gpt-5.4' });
    expect(windowLabel(w)).toMatch(/^258,400: stated by the recording for gpt-5\.4/);
    // Priced as another model (--model), the recording's window is not that model's: the table decides.
    expect(chooseWindow([usage(10, { contextWindow: 258_400 })], 'claude-opus-4-6', 'option')).toMatchObject({ tokens: 1_000_000, source: 'table' });
  });

  it('[replay-window-default] without one, the recorded model\'s documented window, naming its source and date', () => {
    const w = chooseWindow([usage(180_000, { model: 'claude-opus-4-5' })], 'claude-opus-4-5', 'recording');
    expect(w).toMatchObject({ tokens: 200_000, source: 'table' });
    expect(windowLabel(w)).toBe('200,000: recorded model claude-opus-4-5 (https://platform.claude.com/docs/en/models/opus-4-5/overview, read 2026-12-01)');
    expect(windowCell(w)).toBe('200,000 (model table)');
    expect(windowLabel(chooseWindow([], 'claude-sonnet-4-5', 'default'))).toMatch(/^200,000: default model \(the trace names none\) claude-sonnet-4-5 \(/);
  });

  it('[replay-window-default] a beta window (Sonnet 4.5\'s 1M) only when the recording\'s own prompts were over the standard one, saying why', () => {
    expect(chooseWindow([usage(199_999)], 'claude-sonnet-4-5', 'recording').tokens).toBe(200_000);
    const w = chooseWindow([usage(10), usage(237_533)], 'claude-sonnet-4-5', 'recording');
    expect(w.tokens).toBe(1_000_000);
    expect(w.why).toMatch(/the 1M-token beta .*since the recording's prompts reach 237,533 tokens, over its standard 200,000/);
    // A model without a beta keeps its window, whatever the recording sent.
    expect(chooseWindow([usage(300_000)], 'claude-opus-4-5', 'recording').tokens).toBe(200_000);
  });

  it('[replay-window-default] a model no row knows has no window, and the label says nothing is checked', () => {
    const w = chooseWindow([usage(10)], 'claude-made-up-1', 'recording');
    expect(w).toEqual({ tokens: null, source: 'none', model: 'claude-made-up-1', why: 'no known window for claude-made-up-1' });
    expect(windowLabel(w)).toBe('none: no known window for claude-made-up-1 (no request is checked against a window)');
    expect(windowCell(w)).toBe('none');
  });
});
