import { describe, expect, it } from 'vitest';
import { compareNotes } from '../../../../../engine/traces/compare/compareNotes';
import { compareRows } from '../../../../../engine/traces/compare/compareTable';
import { windowNotes, windowSummary } from '../../../../../engine/traces/compare/contextNotes';
import { replayTrace } from '../../../../../engine/traces/replay/replayTrace';
import type { ReplayResult } from '../../../../../engine/traces/replay/ReplayTypes';
import type { WindowChoice } from '../../../../../engine/traces/replay/ReplayTypes';
import type { TraceEvent } from '../../../../../engine/traces/TraceEvent';

const source = { file: 'made-up.jsonl', line: 1 };
const events: TraceEvent[] = [{ type: 'user_input', text: 'Fix src/a.ts', source }, { type: 'assistant_text', text: 'ok', step: 0, source }];
const quarter = { encoding: 'quarter', count: (t: string) => Math.ceil(t.length / 4) };
const replay = (budget: number, window?: WindowChoice): ReplayResult => {
  const r = replayTrace(events, { strategy: 'variable', budget, provider: 'anthropic', tokenizer: quarter, timer: () => 0 });
  if (window) r.window = window;
  return r;
};
const opus: WindowChoice = { tokens: 1_000_000, source: 'table', model: 'claude-opus-4-6', why: 'recorded model claude-opus-4-6 (https://platform.claude.com/docs/en/models/opus-4-6/overview, read 2026-12-01)' };
const codex: WindowChoice = { tokens: 258_400, source: 'recording', model: 'gpt-5.4', why: "stated by the recording for gpt-5.4 (the client's model_context_window or contextWindow)" };
const deepseek: WindowChoice = { tokens: 64_000, source: 'table', model: 'deepseek-chat', why: 'recorded model deepseek-chat (https://api-docs.deepseek.com/quick_start/pricing-details-usd, read 2026-12-01)' };
const none: WindowChoice = { tokens: null, source: 'none', model: 'claude-made-up-1', why: 'no known window for claude-made-up-1' };

describe('[replay-window-default] every comparison output states the window and where it came from', () => {
  it('[replay-window-default] one note per window with its traces, the refusal rule, and the budgets a window cannot hold', () => {
    const entries = [
      { trace: 'a.jsonl', result: replay(32_000, opus) },
      { trace: 'b.jsonl', result: replay(32_000, opus) },
      { trace: 'c.jsonl', result: replay(32_000, codex) },
      { trace: 'd.json', result: replay(100_000, deepseek) },
      { trace: 'e.jsonl', result: replay(32_000, none) },
    ];
    const lines = windowNotes(entries);
    expect(lines).toEqual([
      'context window 1,000,000: recorded model claude-opus-4-6 (https://platform.claude.com/docs/en/models/opus-4-6/overview, read 2026-12-01) (a.jsonl, b.jsonl)',
      "context window 258,400: stated by the recording for gpt-5.4 (the client's model_context_window or contextWindow) (c.jsonl)",
      'context window 64,000: recorded model deepseek-chat (https://api-docs.deepseek.com/quick_start/pricing-details-usd, read 2026-12-01) (d.json)',
      'context window none: no known window for claude-made-up-1 (no request is checked against a window) (e.jsonl)',
      'budget 100,000 is over the 64,000-token window (d.json): a request that fills the budget is refused, so those rows refresh at most twice a step and may still send requests over the window',
      expect.stringMatching(/^context window: a request of more prompt tokens \(the fixed prefix included, in the provider's tokens\), or a step whose recorded prompt had more, is refused/),
    ]);
    expect(compareNotes(entries)).toEqual(expect.arrayContaining(lines));
    // The CSV's and JSON's rows carry it too, per row, grouped like the TTL.
    expect(compareRows(entries.slice(0, 3).map((e) => e.result))[0]?.window).toBe('1,000,000 (model table) ×2; 258,400 (recording) ×1');
    expect(windowSummary([{ ...opus, tokens: 150_000, source: 'option' }])).toBe('150,000 (--window)');
  });

  it('[replay-window-default] a replay that was asked for no window adds no window note', () => {
    expect(windowNotes([{ trace: 'a.jsonl', result: replay(32_000) }])).toEqual([]);
    expect(compareRows([replay(32_000)])[0]?.window).toBe('not checked');
  });
});
