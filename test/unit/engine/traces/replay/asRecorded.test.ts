import { describe, expect, it } from 'vitest';
import { fixedPrefix } from '../../../../../engine/traces/replay/fixedPrefix';
import { replayAsRecorded, replayFullHistoryBaseline } from '../../../../../engine/traces/replay/replayTranscript';
import { replayTrace } from '../../../../../engine/traces/replay/replayTrace';
import { CLEARED_RESULT } from '../../../../../engine/traces/replay/transcript';
import type { Tokenizer } from '../../../../../engine/tokens/Tokenizer';
import type { TraceEvent } from '../../../../../engine/traces/TraceEvent';

/** One token per word: easy to count by hand. */
const words: Tokenizer = { encoding: 'words', count: (t) => (t.trim() === '' ? 0 : t.trim().split(/\s+/).length) };
const src = (line: number) => ({ file: 'made-up.jsonl', line });
const usage = (step: number, prompt: number, output = 0, model = 'gpt-5.4'): TraceEvent => ({ type: 'usage', input: prompt, cacheRead: 0, cacheWrite: 0, output, model, step, source: src(900 + step) });
const say = (step: number, text: string, line: number): TraceEvent => ({ type: 'assistant_text', text, step, source: src(line) });
const user = (text: string, line: number): TraceEvent => ({ type: 'user_input', text, source: src(line) });
const call = (step: number, id: string, line: number): TraceEvent => ({ type: 'tool_call', callId: id, name: 'Read', arguments: '{}', step, source: src(line) });
const result = (id: string, content: string, line: number): TraceEvent => ({ type: 'tool_result', callId: id, content, isError: false, source: src(line) });

describe('[replay-fixed-prefix] the fixed prefix every row sends', () => {
  it('[replay-fixed-prefix] a recorded prefix (system prompt and tools) is sent as it was, by every row, and nothing is estimated', () => {
    const ev: TraceEvent[] = [
      { type: 'prefix', system: ['you are an agent'], tools: ['{"name":"Read"}'], source: src(1) },
      user('fix the bug', 2),
      say(0, 'looking now', 3),
      usage(0, 9),
    ];
    const p = fixedPrefix(ev, words);
    expect(p.summary).toMatchObject({ source: 'recorded', estimated: false, estimatedTokens: 0, recordedTokens: 5 });
    expect(p.standIns.size).toBe(0);
    for (const r of [replayAsRecorded(ev, { provider: 'openai', tokenizer: words }), replayFullHistoryBaseline(ev, { provider: 'openai', tokenizer: words }), replayTrace(ev, { strategy: 'variable', budget: 4000, provider: 'openai', tokenizer: words })]) {
      expect(r.steps[0]?.prefixTokens).toBe(5);
      expect(r.prefix.note).toMatch(/^system prompt and tool schemas as recorded \(5 tokens\)/);
    }
  });

  it('[replay-fixed-prefix] without recorded tools a stand-in calibrated on the first call covers what was billed but not recorded, marked estimated', () => {
    // First call billed 100; Strata counts the instructions (3) and the user message ("user" + 3 words = 4).
    const ev: TraceEvent[] = [{ type: 'instructions', role: 'system', text: 'be very careful', source: src(1) }, user('fix the bug', 2), say(0, 'ok', 3), usage(0, 100)];
    const p = fixedPrefix(ev, words);
    expect(p.standIns.get(undefined)).toMatchObject({ tokens: 93, billed: 100, counted: 7 });
    expect(p.summary).toMatchObject({ source: 'instructions', estimated: true, estimatedTokens: 93, recordedTokens: 3 });
    expect(p.summary.note).toContain('estimated stand-in 93 tokens (first call billed 100 − counted 7)');
    const asRecorded = replayAsRecorded(ev, { provider: 'openai', tokenizer: words });
    // The stand-in makes the first call what was billed; it has no text, so it adds no bytes.
    expect(asRecorded.steps[0]?.promptTokens).toBe(100);
    expect(asRecorded.steps[0]?.prefixTokens).toBe(96);
    const engine = replayTrace(ev, { strategy: 'variable', budget: 4000, provider: 'openai', tokenizer: words });
    expect(engine.steps[0]?.prefixTokens).toBe(96);
  });

  it('[replay-fixed-prefix] a trace without recorded usage has nothing to calibrate on: no stand-in, and the note says so', () => {
    const ev: TraceEvent[] = [user('fix the bug', 1), say(0, 'ok', 2)];
    const p = fixedPrefix(ev, words);
    expect(p.standIns.size).toBe(0);
    expect(p.summary.note).toMatch(/no recorded usage to calibrate a stand-in on/);
    expect(p.tokenScale.value).toBe(1);
  });
});

describe('[replay-token-scale] provider tokens per counted token', () => {
  it('[replay-token-scale] is fitted on the first quarter (at least 5) of the recorded call-to-call growths and prices every row', () => {
    // Each step adds one result of 1,002 counted tokens ("tool <id>" + 1,000 words) and the next call's message (4); the provider billed 1,509 more each time.
    const big = Array.from({ length: 1000 }, (_, i) => `w${i}`).join(' ');
    const ev: TraceEvent[] = [user('go', 1)];
    for (let s = 0; s < 8; s++) ev.push(call(s, `c${s}`, 10 * s + 2), usage(s, 50 + 1509 * s), result(`c${s}`, big, 10 * s + 3));
    const p = fixedPrefix(ev, words);
    expect(p.tokenScale).toMatchObject({ pairs: 7, fitted: 5 });
    expect(p.tokenScale.value).toBeCloseTo(1509 / 1006, 12);
    expect(p.summary.tokenScale).toBe(p.tokenScale.value);
    expect(p.summary.note).toContain('fitted on the first 5 of 7 call-to-call growths');
    const priced = replayAsRecorded(ev, { provider: 'openai', tokenizer: words });
    // Priced in the provider's tokens: each step's counted growth of 1,006 is billed as 1,509.
    expect(priced.steps[2]!.promptTokens - priced.steps[1]!.promptTokens).toBe(1509);
  });

  it('[replay-token-scale] growth too small to tell a scale from message framing leaves it at 1', () => {
    const ev: TraceEvent[] = [user('go', 1)];
    for (let s = 0; s < 8; s++) ev.push(call(s, `c${s}`, 10 * s + 2), usage(s, 50 + 12 * s), result(`c${s}`, 'one two three', 10 * s + 3));
    const p = fixedPrefix(ev, words);
    expect(p.tokenScale.value).toBe(1);
    expect(p.tokenScale.note).toMatch(/too little to fit on/);
  });
});

describe('[replay-as-recorded] the agent as it ran', () => {
  it('[replay-as-recorded] follows a compaction: the summary and the kept lines replace the history; the full history keeps everything', () => {
    const ev: TraceEvent[] = [
      user('first request with many words in it', 1),
      say(0, 'an answer of several words here', 2),
      usage(0, 20),
      user('second request', 4),
      say(1, 'kept answer', 5),
      usage(1, 30),
      { type: 'compaction', summary: 'short summary', keptLines: [5], source: src(7) },
      user('third', 8),
      say(2, 'done', 9),
      usage(2, 10),
    ];
    const a = replayAsRecorded(ev, { provider: 'openai', tokenizer: words });
    const f = replayFullHistoryBaseline(ev, { provider: 'openai', tokenizer: words });
    expect(a.strategy).toBe('as_recorded');
    // Step 2 sends: the summary ("user short summary"), the kept answer ("assistant kept answer"), "user third" (+ the prefix).
    expect((a.steps[2]?.promptTokens ?? 0) - (a.steps[2]?.prefixTokens ?? 0)).toBe(3 + 3 + 2);
    expect(f.steps[2]!.promptTokens).toBeGreaterThan(a.steps[2]!.promptTokens);
  });

  it('[replay-as-recorded] a recorded replacement history (Codex) is the history after the compaction', () => {
    const ev: TraceEvent[] = [user('a long first request of many words indeed', 1), say(0, 'x', 2), usage(0, 20), { type: 'compaction', summary: 's', history: [{ role: 'user', text: 'restated request' }, { role: 'user', text: 'the summary' }], source: src(4) }, say(1, 'y', 5), usage(1, 8)];
    const a = replayAsRecorded(ev, { provider: 'openai', tokenizer: words });
    expect((a.steps[1]?.promptTokens ?? 0) - (a.steps[1]?.prefixTokens ?? 0)).toBe(3 + 3);
  });

  it('[replay-as-recorded] instructions a recorded replacement history restates are sent there, not twice; a compaction call sends what its client sends', () => {
    const ev: TraceEvent[] = [
      { type: 'instructions', role: 'developer', text: 'base rules', source: src(1) },
      { type: 'instructions', role: 'developer', text: 'skill list here', source: src(2) },
      user('go now', 3),
      say(0, 'x', 4),
      usage(0, 20),
      say(1, 'summary text', 5),
      { type: 'usage', input: 30, cacheRead: 0, cacheWrite: 0, output: 2, step: 1, call: 'compaction', compactionRequest: { toolsSent: false, instructionTokens: 40 }, source: src(6) },
      { type: 'compaction', summary: 'summary text', history: [{ role: 'developer', text: 'skill list here' }, { role: 'user', text: 'summary text' }], source: src(7) },
      say(2, 'y', 8),
      usage(2, 20),
    ];
    const a = replayAsRecorded(ev, { provider: 'openai', tokenizer: words });
    // The compaction call: no stand-in (it stands for tools it does not send), the client's 40-token instruction appended.
    expect(a.steps[1]?.prefixTokens).toBe(5);
    expect(a.steps[1]!.promptTokens - a.steps[0]!.promptTokens).toBe(-(a.steps[0]!.prefixTokens - 5) + 2 + 40);
    // After it: "base rules" alone in the prefix; the restated skill list travels in the history.
    expect(a.steps[2]?.prefixTokens).toBe((a.steps[0]?.prefixTokens ?? 0) - 3);
  });

  it('[replay-as-recorded] [replay-clearing] a billed prompt that falls with no compaction recorded clears the oldest tool results, counted', () => {
    const big = Array.from({ length: 200 }, (_, i) => `w${i}`).join(' ');
    const ev: TraceEvent[] = [user('go', 1)];
    for (let s = 0; s < 4; s++) ev.push(call(s, `c${s}`, 10 * s + 2), usage(s, 50 + 200 * s), result(`c${s}`, big, 10 * s + 3));
    // Step 4 is billed at a quarter of step 3: the client cleared old results it did not record.
    ev.push(say(4, 'done', 50), usage(4, 200));
    const a = replayAsRecorded(ev, { provider: 'openai', tokenizer: words });
    expect(a.steps.slice(0, 4).every((s) => s.clearedResults === undefined)).toBe(true);
    expect(a.steps[4]?.clearedResults).toBeGreaterThanOrEqual(2);
    expect(a.steps[4]!.promptTokens).toBeLessThan(a.steps[3]!.promptTokens / 2);
    // The full history never clears.
    const f = replayFullHistoryBaseline(ev, { provider: 'openai', tokenizer: words });
    expect(f.steps[4]!.promptTokens).toBeGreaterThan(f.steps[3]!.promptTokens);
    expect(CLEARED_RESULT).toMatch(/cleared/);
  });

  it('[replay-as-recorded] a Claude response carries its hidden reasoning (billed output minus visible) into later requests', () => {
    const ev: TraceEvent[] = [user('go', 1), say(0, 'two words', 2), usage(0, 10, 50, 'claude-opus-4-6'), user('next', 4), say(1, 'ok', 5), usage(1, 70, 1, 'claude-opus-4-6')];
    const claude = replayAsRecorded(ev, { provider: 'anthropic', tokenizer: words });
    const gpt = replayAsRecorded(
      ev.map((e) => (e.type === 'usage' ? { ...e, model: 'gpt-5.4' } : e)),
      { provider: 'anthropic', tokenizer: words },
    );
    // "two words" counts 2 of the 50 output tokens: 48 hidden tokens travel with the response.
    const growth = (r: typeof claude) => r.steps[1]!.promptTokens - r.steps[1]!.prefixTokens - (r.steps[0]!.promptTokens - r.steps[0]!.prefixTokens);
    expect(growth(claude) - growth(gpt)).toBe(48);
  });
});
