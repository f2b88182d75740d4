import { describe, expect, it } from 'vitest';
import type { Tokenizer } from '../../../../../engine/tokens/Tokenizer';
import { runReplayJob, type ReplayJob } from '../../../../../engine/node/traces/replayWorker';
import type { TraceEvent } from '../../../../../engine/traces/TraceEvent';

const source = { file: 'made-up.jsonl', line: 1 };
const quarter: Tokenizer = { encoding: 'quarter', count: (t) => Math.ceil(t.length / 4) };

/** Six calls of claude-opus-4-5 (a 200,000-token window); the recorded prompt of the fifth and sixth is over it. */
function recording(model = 'claude-opus-4-5', extra: Partial<Extract<TraceEvent, { type: 'usage' }>> = {}): TraceEvent[] {
  const ev: TraceEvent[] = [{ type: 'user_input', text: 'Fix src/a.ts', source }];
  const prompts = [20_000, 60_000, 110_000, 160_000, 205_000, 150_000];
  prompts.forEach((p, step) => {
    ev.push({ type: 'assistant_text', text: `step ${step} reads src/a.ts`, step, source });
    ev.push({ type: 'usage', input: 100, cacheRead: p - 100, cacheWrite: 0, output: 5, model, step, source, ...extra });
  });
  return ev;
}
const job = (over: Partial<ReplayJob> = {}): ReplayJob => ({ trace: 'made-up.jsonl', strategy: 'variable', budget: 8000, provider: 'anthropic', ...over });

describe('[replay-window-default] a comparison job is held against the recorded model\'s window', () => {
  it('[replay-window-default] [replay-window] window "model": the table\'s 200,000 for claude-opus-4-5, and the step whose recorded prompt was over it refreshes', () => {
    const r = runReplayJob(job({ window: 'model' }), recording(), quarter);
    expect(r.window).toMatchObject({ tokens: 200_000, source: 'table', model: 'claude-opus-4-5' });
    expect(r.window?.why).toMatch(/^recorded model claude-opus-4-5 \(https:\/\/platform\.claude\.com\//);
    expect(r.steps.map((s) => s.recordedOverWindow)).toEqual([false, false, false, false, true, false]);
    expect(r.steps.map((s) => s.limitRefreshes)).toEqual([0, 0, 0, 0, 1, 0]);
    expect(r.totals.refreshes).toBe(1);
  });

  it('[replay-window-default] the baselines carry the same window (they never refresh)', () => {
    const r = runReplayJob(job({ strategy: 'full_history_baseline', window: 'model' }), recording(), quarter);
    expect(r.window).toMatchObject({ tokens: 200_000, source: 'table' });
    expect(r.totals.refreshes).toBe(0);
  });

  it('[replay-window-default] a window the recording states wins over the table; --window over both', () => {
    expect(runReplayJob(job({ window: 'model' }), recording('claude-opus-4-5', { contextWindow: 180_000 }), quarter).window).toMatchObject({ tokens: 180_000, source: 'recording' });
    const forced = runReplayJob(job({ window: 100_000 }), recording(), quarter);
    expect(forced.window).toMatchObject({ tokens: 100_000, source: 'option' });
    expect(forced.steps.map((s) => s.recordedOverWindow)).toEqual([false, false, true, true, true, true]);
  });

  it('[replay-window-default] a model without a known window, or a job that asks for none (a live shadow), checks nothing', () => {
    const unknown = runReplayJob(job({ window: 'model' }), recording('claude-made-up-1'), quarter);
    expect(unknown.window).toMatchObject({ tokens: null, source: 'none' });
    expect(unknown.steps.some((s) => s.recordedOverWindow)).toBe(false);
    const shadow = runReplayJob(job(), recording(), quarter);
    expect(shadow.window).toBeUndefined();
    expect(shadow.totals.refreshes).toBe(0);
  });
});
