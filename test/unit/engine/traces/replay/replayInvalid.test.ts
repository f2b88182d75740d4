import { describe, expect, it } from 'vitest';
import { strategyNames } from '../../../../../engine/strategies/strategies';
import type { Tokenizer } from '../../../../../engine/tokens/Tokenizer';
import { replayTrace } from '../../../../../engine/traces/replay/replayTrace';
import type { ReplayOptions } from '../../../../../engine/traces/replay/ReplayTypes';
import type { TraceEvent } from '../../../../../engine/traces/TraceEvent';

const source = { file: 'made-up.jsonl', line: 1 };
const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const iso = (s: number) => new Date(T0 + s * 1000).toISOString();
const quarter: Tokenizer = { encoding: 'quarter', count: (t) => Math.ceil(t.length / 4) };
const opts = (over: Partial<ReplayOptions> = {}): ReplayOptions => ({ strategy: 'variable', budget: 4000, provider: 'anthropic', tokenizer: quarter, timer: () => 0, ...over });

/** A coding session with parallel calls, a failing then passing test run, and a result recorded before its call. */
function session(steps: number): TraceEvent[] {
  const ev: TraceEvent[] = [
    { type: 'instructions', role: 'system', text: 'You are a careful coding agent. '.repeat(40), source },
    { type: 'user_input', text: 'Fix the token refresh in src/auth/store.ts; the tests must pass.', at: iso(0), source },
  ];
  for (let s = 0; s < steps; s++) {
    ev.push({ type: 'assistant_text', text: `Step ${s}: reading src/mod${s}.ts and running the tests.`, step: s, at: iso(s * 10), source });
    if (s === 4) ev.push({ type: 'tool_result', callId: `r${s}`, content: 'written before its call', isError: false, at: iso(s * 10), source });
    ev.push({ type: 'tool_call', callId: `r${s}`, name: 'Read', arguments: JSON.stringify({ file_path: `src/mod${s}.ts` }), step: s, at: iso(s * 10), source });
    ev.push({ type: 'tool_call', callId: `t${s}`, name: 'Bash', arguments: JSON.stringify({ command: 'npm test' }), step: s, at: iso(s * 10), source });
    if (s !== 4) ev.push({ type: 'tool_result', callId: `r${s}`, content: `export const v${s} = ${s};\n`.repeat(30), isError: false, at: iso(s * 10 + 2), source });
    ev.push({ type: 'tool_result', callId: `t${s}`, content: s < steps - 1 ? `FAIL src/mod${s}.test.ts\n1 failed` : 'PASS', isError: s < steps - 1, at: iso(s * 10 + 3), source });
  }
  return ev;
}

describe('[replay-invalid] engine strategies judged like an API', () => {
  it.each(strategyNames)('[replay-invalid] %s renders every result with its call, so none of its requests is invalid', (strategy) => {
    for (const budget of [1500, 4000]) {
      const r = replayTrace(session(12), opts({ strategy, budget }));
      expect(r.totals.steps).toBe(12);
      expect(r.totals.invalidRequests).toBe(0);
      expect(r.totals.invalidReasons).toEqual({ empty_request: 0, orphaned_result: 0, unanswered_call: 0, over_window: 0 });
      expect(r.steps.every((s) => s.invalid === undefined && s.promptTokens > 0)).toBe(true);
    }
  });

  it('[replay-invalid] [replay-window] a request still over the window after the refreshes is invalid and priced as nothing sent', () => {
    const open = replayTrace(session(6), opts());
    // Smaller than the fixed prefix: no refresh can bring any request under it.
    const window = Math.floor((open.steps[0]?.prefixTokens ?? 0) / 2);
    const shut = replayTrace(session(6), opts({ window }));
    expect(shut.steps.map((s) => s.invalid)).toEqual(Array(6).fill('over_window'));
    for (const s of shut.steps) {
      expect([s.promptTokens, s.prefixTokens, s.input, s.cacheRead, s.cacheWrite, s.output, s.promptBytes, s.reusedBytes]).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
      expect(s.limitRefreshes).toBe(2);
    }
    expect(shut.totals).toMatchObject({ promptTokens: 0, invalidRequests: 6, invalidReasons: { over_window: 6 } });
    expect(shut.totals.costUsd?.total ?? 0).toBe(0);
    // A window the requests fit changes nothing.
    const roomy = replayTrace(session(6), opts({ window: 10_000_000 }));
    expect(roomy.totals.invalidRequests).toBe(0);
    expect(roomy.steps.map((s) => s.promptTokens)).toEqual(open.steps.map((s) => s.promptTokens));
  });
});
