import { describe, expect, it } from 'vitest';
import type { Tokenizer } from '../../../../../engine/tokens/Tokenizer';
import { modelAccuracy, recordedTruth } from '../../../../../engine/traces/replay/recordedTruth';
import { orphanedResults, replayFullHistoryBaseline } from '../../../../../engine/traces/replay/replayTranscript';
import { engineSegments, renderedResults } from '../../../../../engine/traces/replay/replayRequest';
import type { ReplayResult } from '../../../../../engine/traces/replay/ReplayTypes';
import type { TraceEvent } from '../../../../../engine/traces/TraceEvent';
import { identity, item, newEngine, taskItems } from '../../../../support/engineFixtures';

const source = { file: 'made-up.jsonl', line: 1 };
const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const iso = (s: number) => new Date(T0 + s * 1000).toISOString();
const quarter: Tokenizer = { encoding: 'quarter', count: (t) => Math.ceil(t.length / 4) };

function session(): TraceEvent[] {
  const ev: TraceEvent[] = [
    { type: 'instructions', role: 'system', text: 'You are a careful agent. '.repeat(300), source },
    { type: 'user_input', text: 'Fix src/a.ts', at: iso(0), source },
  ];
  for (let s = 0; s < 5; s++) {
    ev.push({ type: 'assistant_text', text: `step ${s}`, step: s, at: iso(s * 10), source });
    ev.push({ type: 'tool_call', callId: `c${s}`, name: 'Read', arguments: JSON.stringify({ file_path: `src/f${s}.ts` }), step: s, at: iso(s * 10), source });
    ev.push({ type: 'usage', input: 10, cacheRead: 2000 + 400 * s, cacheWrite: 300, output: 20, step: s, at: iso(s * 10), source });
    ev.push({ type: 'tool_result', callId: `c${s}`, content: `export const value${s} = ${s};\n`.repeat(40), isError: false, at: iso(s * 10 + 2), source });
  }
  // A result whose call never comes, and one recorded before its call.
  ev.push({ type: 'tool_result', callId: 'ghost', content: 'lost', isError: false, source });
  ev.push({ type: 'tool_result', callId: 'late', content: 'early result', isError: false, source });
  ev.push({ type: 'tool_call', callId: 'late', name: 'Grep', arguments: '{"pattern":"x"}', step: 5, at: iso(50), source });
  ev.push({ type: 'assistant_text', text: 'final', step: 6, at: iso(60), source });
  return ev;
}

describe('[replay-baseline] the plain full-history baseline', () => {
  it('[replay-baseline] grows append-only: every step reuses the whole previous request, with no orphans', () => {
    const r = replayFullHistoryBaseline(session(), { provider: 'anthropic', tokenizer: quarter, model: 'claude-sonnet-4-5' });
    expect(r.steps).toHaveLength(7);
    for (const s of r.steps.slice(1)) {
      const previous = r.steps[s.index - 1];
      expect(s.reusedBytes).toBe(previous?.promptBytes);
      expect(s.promptTokens).toBeGreaterThanOrEqual(previous?.promptTokens ?? 0);
    }
    expect(r.totals.orphanedToolResults).toBe(0);
    expect(r.repairs).toMatchObject({ unmatchedResults: 1, reorderedResults: 1 });
    // The cache model reads the previous request from the second call on (everything is over 1,024 tokens).
    expect(r.steps[1]?.cacheRead).toBe(r.steps[0]?.promptTokens);
    expect(r.budget).toBeNull();
  });

  it('[replay-baseline] leaves the recorded instructions out when asked', () => {
    const withInstructions = replayFullHistoryBaseline(session(), { provider: 'openai', tokenizer: quarter });
    const without = replayFullHistoryBaseline(session(), { provider: 'openai', tokenizer: quarter, instructions: false });
    // The fixed prefix is the recorded instructions (times the token scale) and any stand-in: all of it goes.
    expect((withInstructions.steps[0]?.promptTokens ?? 0) - (without.steps[0]?.promptTokens ?? 0)).toBe(withInstructions.steps[0]?.prefixTokens);
    expect(withInstructions.steps[0]?.prefixTokens).toBeGreaterThanOrEqual(Math.round(quarter.count('You are a careful agent. '.repeat(300)) * withInstructions.prefix.tokenScale));
    expect(without.steps.every((s) => s.prefixTokens === 0)).toBe(true);
  });

  it('[replay-orphans] counts a tool message without an earlier call as an orphan', () => {
    expect(
      orphanedResults([
        { id: '1', role: 'tool', toolCallId: 'a', content: 'x', isError: false },
        { id: '2', role: 'assistant', content: '', toolCalls: [{ id: 'a', name: 'Read', arguments: '{}' }] },
        { id: '3', role: 'tool', toolCallId: 'a', content: 'x', isError: false },
      ]),
    ).toBe(1);
  });
});

describe('[replay-request] the engine request', () => {
  it('[replay-request] its segments join to exactly the text the engine built, with breakpoints after the static part and the last L2 block', () => {
    const { engine } = newEngine();
    engine.registerAgent(identity({ budget: 6000 }));
    for (const i of taskItems('worker-1')) engine.addItem(i);
    engine.addItem(item({ id: 'f1', agentId: 'worker-1' }));
    engine.addItem(item({ id: 'f2', agentId: 'worker-1', content: 'second finding about src/auth/store.ts' }));
    const built = engine.build('worker-1', { phase: 'implement' });
    const segments = engineSegments(built.prompt);
    expect(segments.map((s) => s.text).join('')).toBe(built.text);
    expect(segments.filter((s) => s.breakpoint).map((s) => segments.indexOf(s))).toEqual([0, segments.length - 2]);
  });

  it('[replay-orphans] counts what is rendered: a result marker without its call title is an orphan', () => {
    const ok = '### call c1: Read a.ts\n[code]\n[result of call c1]\nbody\n';
    expect(renderedResults(ok)).toEqual({ results: 1, orphans: 0 });
    expect(renderedResults(`${ok}### note\n[result of call c2 (error)]\nlost\n`)).toEqual({ results: 2, orphans: 1 });
  });
});

describe('[replay-truth] [replay-model-accuracy] recorded usage', () => {
  it('[replay-truth] sums the recorded usage of the main agent, one per step', () => {
    const t = recordedTruth(session());
    expect(t.steps).toBe(7);
    expect(t.callsWithUsage).toBe(5);
    expect(t.cacheRead).toBe(2000 + 2400 + 2800 + 3200 + 3600);
    expect(t.promptTokens).toBe(t.cacheRead + 5 * 310);
    expect(t.hitRate).toBeCloseTo(t.cacheRead / t.promptTokens, 12);
  });

  it('[replay-model-accuracy] gives per-step and total relative errors against the recorded figures', () => {
    const t = recordedTruth(session());
    const fake = {
      steps: t.perStep.map((r, i) => ({ step: r.step, index: i, promptTokens: r.prompt * 2, cacheRead: i === 0 ? 0 : r.cacheRead })),
    } as unknown as ReplayResult;
    const a = modelAccuracy(t, fake);
    expect(a.matched).toBe(5);
    expect(a.perStep.every((s) => s.promptError === 1)).toBe(true);
    expect(a.perStep[0]?.cacheReadError).toBe(-1);
    expect(a.perStep[1]?.cacheReadError).toBe(0);
    expect(a.promptError).toBe(1);
    expect(a.cacheReadError).toBeCloseTo(-2000 / t.cacheRead, 12);
    expect(a.meanAbsCacheReadError).toBeCloseTo(1 / 5, 12);
    expect(a.modelHitRate).toBeCloseTo((t.cacheRead - 2000) / (2 * t.promptTokens), 12);
  });
});
