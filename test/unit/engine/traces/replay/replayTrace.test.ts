import { describe, expect, it } from 'vitest';
import { strategyNames } from '../../../../../engine/strategies/strategies';
import type { StrategyName } from '../../../../../engine/strategies/Strategy';
import type { Tokenizer } from '../../../../../engine/tokens/Tokenizer';
import { replayTrace } from '../../../../../engine/traces/replay/replayTrace';
import { replayTotals } from '../../../../../engine/traces/replay/replayTotals';
import { compareRows } from '../../../../../engine/traces/compare/compareTable';
import { reuseBreak } from '../../../../../engine/traces/replay/reuseBreak';
import type { ReplayOptions, StepMetrics } from '../../../../../engine/traces/replay/ReplayTypes';
import type { TraceEvent } from '../../../../../engine/traces/TraceEvent';

const source = { file: 'made-up.jsonl', line: 1 };
const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const iso = (s: number) => new Date(T0 + s * 1000).toISOString();
const userIn = (text: string, s = 0): TraceEvent => ({ type: 'user_input', text, at: iso(s), source });
const say = (text: string, step: number, s = step * 10): TraceEvent => ({ type: 'assistant_text', text, step, at: iso(s), source });
const call = (callId: string, name: string, args: Record<string, unknown>, step: number, s = step * 10): TraceEvent => ({ type: 'tool_call', callId, name, arguments: JSON.stringify(args), step, at: iso(s), source });
const result = (callId: string, content: string, s: number, isError = false): TraceEvent => ({ type: 'tool_result', callId, content, isError, at: iso(s), source });
const usage = (step: number, input: number, cacheRead: number, cacheWrite = 0): TraceEvent => ({ type: 'usage', input, cacheRead, cacheWrite, output: 10, step, at: iso(step * 10), source });

/** One token per 4 UTF-16 units: fast and deterministic. */
const quarter: Tokenizer = { encoding: 'quarter', count: (t) => Math.ceil(t.length / 4) };
const fixedTimer = () => 0;
const opts = (over: Partial<ReplayOptions> = {}): ReplayOptions => ({ strategy: 'variable', budget: 8000, provider: 'anthropic', tokenizer: quarter, timer: fixedTimer, ...over });

const code = (name: string, lines: number) => Array.from({ length: lines }, (_, i) => `${i + 1}\texport function ${name}Part${i}(value: number) { return value * ${i}; }`).join('\n');

/** A small coding session: read, grep, failing test, edit, passing test; every step reads one more file. */
function session(steps = 12): TraceEvent[] {
  const ev: TraceEvent[] = [userIn('Fix the refresh bug in src/auth/store.ts; tests must pass.')];
  for (let s = 0; s < steps; s++) {
    const file = `src/mod${s}/file${s}.ts`;
    ev.push(say(`Step ${s}: reading ${file} and checking saveToken usage.`, s));
    ev.push(call(`c${s}a`, 'Read', { file_path: file }, s));
    ev.push(call(`c${s}b`, 'Bash', { command: s % 3 === 2 ? 'npm test' : `grep -rn saveToken src/mod${s}` }, s));
    ev.push(usage(s, 100 + s, 1000 * s));
    ev.push(result(`c${s}a`, code(`mod${s}`, 40), s * 10 + 2));
    ev.push(result(`c${s}b`, s % 3 === 2 ? `FAIL src/mod${s}/file${s}.test.ts\n1 failed` : `src/mod${s}/file${s}.ts:3: saveToken(x)`, s * 10 + 3));
  }
  return ev;
}

const ENGINE_STRATEGIES: StrategyName[] = ['variable', 'full_history', 'summary', 'aggressive_refresh', 'role_optimized'];

describe('replayTrace on synthetic sessions', () => {
  it('[replay-counterfactual] [replay-agents] builds one request per recorded step of every agent, before the step, from what that agent observed so far', () => {
    const ev: TraceEvent[] = [
      userIn('Fix src/a.ts'),
      call('x1', 'Read', { file_path: 'src/a.ts' }, 0),
      result('x1', 'const alpha = 1;', 2),
      { type: 'subagent_spawn', agentId: 'sub', source },
      { type: 'assistant_text', text: 'subagent work', step: 1, agentId: 'sub', source },
      { type: 'subagent_return', agentId: 'sub', source },
      say('done', 2, 30),
    ];
    const r = replayTrace(ev, opts());
    expect(r.steps.map((s) => [s.step, s.agentId ?? 'main'])).toEqual([
      [0, 'main'],
      [1, 'sub'],
      [2, 'main'],
    ]);
    expect(r.repairs.subagentEvents).toBe(0);
    // The first request has no tool result yet; the main agent's second holds the read's result, the subagent sees none of it.
    expect(r.steps.map((s) => s.toolResults)).toEqual([0, 0, 1]);
    // The subagent step records no time (30 s after the first); the last is recorded at 30 s.
    expect(r.steps.map((s) => s.at)).toEqual([T0, T0 + 30_000, T0 + 30_000]);
  });

  it('[replay-recall] a read is needed but not held before an earlier observation holds its lines; an edit of lines the context shows is held; a name alone counts nothing', () => {
    const store = ['export const token = readTokenFromDisk();', 'export function saveToken(value: string) {', '  writeTokenToDisk(encrypt(value));', '}'].join('\n');
    const ev: TraceEvent[] = [
      userIn('Please fix the bug in src/auth/store.ts'),
      call('r1', 'Read', { file_path: 'src/auth/store.ts' }, 0),
      result('r1', store, 2),
      call('r2', 'Read', { file_path: 'src/billing/invoice.ts' }, 1),
      result('r2', 'export const invoiceTotal = sumLines(lines);', 12),
      say('Both src/auth/store.ts and src/billing/invoice.ts are read; saveToken is the culprit.', 2),
      call('e1', 'Edit', { file_path: 'src/auth/store.ts', old_string: '  writeTokenToDisk(encrypt(value));', new_string: '  writeTokenToDisk(encryptOnce(value));' }, 3),
      result('e1', 'The file has been updated.', 32),
    ];
    const r = replayTrace(ev, opts());
    expect(r.steps.map((s) => [s.references, s.referencesHeld, s.neededReferenceRecall])).toEqual([
      [1, 0, 0],
      [1, 0, 0],
      [0, 0, undefined],
      [1, 1, 1],
    ]);
    expect([r.totals.pooledReferenceRecall, r.totals.neededReferenceRecall]).toEqual([1 / 3, 1 / 3]);
  });

  it('[replay-recall] writing a new file and naming symbols need no content', () => {
    const ev: TraceEvent[] = [
      userIn('Rename saveToken in src/a.ts'),
      call('w1', 'Write', { file_path: 'src/a.ts', content: 'export function brandNewThing() {}' }, 0),
      result('w1', 'File written', 2),
      say('I replaced saveToken and also looked at saveTokenFamily.', 1),
    ];
    const r = replayTrace(ev, opts());
    expect(r.steps.map((s) => [s.references, s.referencesHeld, s.neededReferenceRecall])).toEqual([
      [0, 0, undefined],
      [0, 0, undefined],
    ]);
    expect(r.totals.pooledReferenceRecall).toBeUndefined();
  });

  it('[replay-request] [prefix-reuse-def] identical consecutive requests reuse their whole prefix', () => {
    const ev: TraceEvent[] = [userIn('Explain src/a.ts'), say('Thinking about it.', 0), say('Still thinking.', 1), say('Done thinking.', 2)];
    const r = replayTrace(ev, opts());
    expect(r.steps.map((s) => s.prefixReuse)).toEqual([0, 1, 1]);
    expect(r.steps[1]?.reusedBytes).toBe(r.steps[1]?.promptBytes);
  });

  it.each(ENGINE_STRATEGIES)('[replay-orphans] [replay-budget] %s renders no tool result without its call and never exceeds the budget', (strategy) => {
    for (const budget of [1500, 4000]) {
      const r = replayTrace(session(14), opts({ strategy, budget }));
      expect(r.totals.steps).toBe(14);
      expect(r.totals.orphanedToolResults).toBe(0);
      for (const s of r.steps) {
        expect(s.engineTokens).toBeLessThanOrEqual(budget);
        expect(s.overBudget).toBe(false);
        // What is priced beyond the engine's pack is the fixed prefix, the same in every row.
        expect(s.prefixTokens).toBe(r.steps[0]?.prefixTokens);
      }
      if (strategy !== 'summary') expect(r.totals.toolResults).toBeGreaterThan(0);
    }
  });

  it('[replay-budget] a budget that binds starts new generations instead of exceeding it', () => {
    const r = replayTrace(session(14), opts({ budget: 1500 }));
    expect(r.totals.rebuilds).toBeGreaterThan(0);
    expect(r.totals.generations).toBe(1 + r.totals.rebuilds + r.totals.refreshes);
    expect(r.totals.overBudgetSteps).toBe(0);
  });

  it('[replay-reuse-break] says where each request stopped sharing its prefix: appends inside a generation, a re-pack at a boundary', () => {
    const r = replayTrace(session(14), opts({ budget: 1500 }));
    const after = r.steps.slice(1);
    expect(r.steps[0]?.reuseBreak).toBeUndefined();
    for (const s of after) {
      if (s.boundary === undefined) expect(s.reuseBreak).toBe('append');
      else expect(['L1', 'L2', 'L3', 'append']).toContain(s.reuseBreak);
    }
    expect(after.some((s) => s.reuseBreak === 'L2')).toBe(true);
    const quiet = replayTrace([userIn('Explain src/a.ts'), say('one', 0), say('two', 1)], opts());
    expect(quiet.steps[1]?.reuseBreak).toBe('none');
    expect(Object.values(r.totals.reuseBreaks).reduce((a, b) => a + b, 0)).toBe(after.length);
  });

  it.each([
    [120, 'L0'],
    [250, 'L1'],
    [600, 'L2'],
    [900, 'append'],
  ] as const)('[replay-reuse-break] a prefix shared up to byte %d breaks in %s', (shared, kind) => {
    const previous = { l0: 200, static: 400, l2: 900, total: 1000 };
    expect(reuseBreak(shared, previous, { l0: 200, static: 400, l2: 1500, total: 1600 })).toBe(kind);
  });

  it('[replay-reuse-break] only the tail differs when L2 did not grow, and nothing when the request is a prefix of the previous one', () => {
    const previous = { l0: 200, static: 400, l2: 900, total: 1000 };
    expect(reuseBreak(950, previous, { l0: 200, static: 400, l2: 900, total: 1001 })).toBe('L3');
    expect(reuseBreak(1000, previous, { l0: 200, static: 400, l2: 900, total: 1000 })).toBe('none');
  });

  it('[replay-totals] totals are the sums of the steps', () => {
    const r = replayTrace(session(10), opts({ budget: 3000 }));
    const sum = (pick: (s: StepMetrics) => number) => r.steps.reduce((n, s) => n + pick(s), 0);
    for (const k of ['promptTokens', 'input', 'cacheRead', 'cacheWrite', 'output', 'promptBytes', 'reusedBytes', 'references', 'referencesHeld', 'rereadsForced', 'toolResults', 'orphanedToolResults', 'refreshes', 'limitRefreshes'] as const) {
      expect(r.totals[k]).toBe(sum((s) => s[k]));
    }
    expect(r.totals.promptTokens).toBe(r.totals.input + r.totals.cacheRead + r.totals.cacheWrite);
    expect(r.totals.hitRate).toBeCloseTo(r.totals.cacheRead / r.totals.promptTokens, 12);
    expect(r.totals.prefixReuse).toBeCloseTo(sum((s) => (s.index > 0 ? s.reusedBytes : 0)) / sum((s) => (s.index > 0 ? s.promptBytes : 0)), 12);
    expect(replayTotals(r.steps, r.model)).toEqual(r.totals);
  });

  it('[replay-deterministic] the same events and options give the same result', () => {
    const a = replayTrace(session(9), opts({ budget: 2500 }));
    const b = replayTrace(session(9), opts({ budget: 2500 }));
    expect(b).toEqual(a);
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
  });

  it('[replay-items] a failing test run stays as task state, passing output and reads are ephemeral', () => {
    // summary keeps task state, findings and reports only: the failing test run of step 2 is the
    // one tool result it renders, from step 3 on; no read, grep or passing run ever is.
    const r = replayTrace(session(6), opts({ budget: 20_000, strategy: 'summary' }));
    expect(r.steps.map((s) => s.toolResults)).toEqual([0, 0, 0, 1, 1, 1]);
    const v = replayTrace(session(6), opts({ budget: 20_000 }));
    expect(v.steps.map((s) => s.toolResults)).toEqual([0, 2, 4, 6, 8, 10]);
  });

  it('[replay-window] a step whose recorded prompt was over the window refreshes the context, as a provider refusal would', () => {
    const ev = session(6);
    const r = replayTrace(ev, opts({ budget: 20_000, window: 3500 }));
    // Recorded prompts are 100 + s + 1000 s: steps 4 and 5 were over 3,500 tokens.
    expect(r.steps.map((s) => s.recordedOverWindow)).toEqual([false, false, false, false, true, true]);
    for (const s of r.steps.slice(4)) {
      expect(s.limitRefreshes).toBeGreaterThanOrEqual(1);
      expect(s.boundary).toBe('refresh');
    }
    expect(r.totals.refreshes).toBeGreaterThanOrEqual(2);
    expect(r.steps[5]?.generation).toBeGreaterThanOrEqual(3);
  });

  it('[replay-window] a built request over the window is refused and refreshed, at most twice a step, and every refresh is counted once per boundary', () => {
    // No usage: the recorded prompts say nothing, so only the requests the engine builds cross the window.
    const ev = session(10).filter((e) => e.type !== 'usage');
    const window = 3000;
    const r = replayTrace(ev, opts({ budget: 20_000, window, capture: true }));
    const refreshGenerations = (r.capture?.generations ?? []).filter((g) => g.boundary.kind === 'refresh');
    expect(refreshGenerations.length).toBeGreaterThanOrEqual(2);
    // The steps' counts add up to the engine's own refresh boundaries, in the totals and in a comparison row.
    expect(r.totals.refreshes).toBe(refreshGenerations.length);
    expect(r.totals.limitRefreshes).toBe(refreshGenerations.length);
    expect(compareRows([r])[0]?.refreshes).toBe(refreshGenerations.length);
    for (const s of r.steps) {
      expect(s.recordedOverWindow).toBe(false);
      expect(s.refreshes).toBe(s.limitRefreshes);
      expect(s.limitRefreshes).toBeLessThanOrEqual(2);
      if (s.limitRefreshes > 0) expect(s.boundary).toBe('refresh');
      // Refused as over the window (and priced as nothing sent, `[replay-invalid]`) only when two refreshes could not bring it under.
      if (s.invalid === 'over_window') expect(s.limitRefreshes).toBe(2);
      expect(s.promptTokens).toBeLessThanOrEqual(window);
    }
    // A generation per refresh: the last step's number counts them (no budget rebuild at 20,000).
    expect(r.steps.filter((s) => s.boundary === 'rebuild')).toEqual([]);
    expect(r.steps.at(-1)?.generation).toBe(1 + refreshGenerations.length);
    // A window no refresh can get under (the objective alone is larger): two refreshes a step, then refused as over it.
    const tight = replayTrace(ev, opts({ budget: 20_000, window: 100, capture: true }));
    expect(tight.steps.map((s) => [s.limitRefreshes, s.refreshes, s.invalid, s.promptTokens])).toEqual(tight.steps.map(() => [2, 2, 'over_window', 0]));
    expect(tight.totals.invalidRequests).toBe(tight.steps.length);
    expect(tight.totals.refreshes).toBe((tight.capture?.generations ?? []).filter((g) => g.boundary.kind === 'refresh').length);
    expect(tight.totals.refreshes).toBe(2 * tight.steps.length);
    // The same replay without a window, or with one nothing reaches, refreshes nothing.
    expect(replayTrace(ev, opts({ budget: 20_000 })).totals.refreshes).toBe(0);
    expect(replayTrace(ev, opts({ budget: 20_000, window: 1_000_000 })).totals.refreshes).toBe(0);
  });

  it('[replay-time] steps without a recorded time are priced 30 s apart', () => {
    const ev: TraceEvent[] = [
      { type: 'user_input', text: 'Do it', source },
      { type: 'assistant_text', text: 'one', step: 0, source },
      { type: 'assistant_text', text: 'two', step: 1, source },
      { type: 'assistant_text', text: 'three', step: 2, source },
    ];
    const r = replayTrace(ev, opts());
    expect(r.steps.map((s) => s.at - (r.steps[0] as StepMetrics).at)).toEqual([0, 30_000, 60_000]);
  });

  it('[replay-counterfactual] refuses an unknown strategy and a budget that is not a positive whole number', () => {
    expect(() => replayTrace(session(1), opts({ strategy: 'nope' as StrategyName }))).toThrow(/unknown strategy/);
    expect(() => replayTrace(session(1), opts({ budget: 0 }))).toThrow(/positive whole/);
  });

  it('[replay-counterfactual] every engine strategy name replays', () => {
    expect([...strategyNames].sort()).toEqual([...ENGINE_STRATEGIES].sort());
  });
});
