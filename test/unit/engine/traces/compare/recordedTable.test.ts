import { describe, expect, it } from 'vitest';
import { formatRecordedTable, recordedRows } from '../../../../../engine/traces/compare/recordedTable';
import { modelAccuracy, recordedSummary, recordedTruth } from '../../../../../engine/traces/replay/recordedTruth';
import { replayFullHistoryBaseline } from '../../../../../engine/traces/replay/replayTranscript';
import { runReplayJob } from '../../../../../engine/node/traces/replayWorker';
import type { Tokenizer } from '../../../../../engine/tokens/Tokenizer';
import type { ReplayResult } from '../../../../../engine/traces/replay/ReplayTypes';
import type { TraceEvent } from '../../../../../engine/traces/TraceEvent';

const source = { file: 'made-up.jsonl', line: 1 };

/** A made-up trace of `n` steps, each with a recorded usage of `input` uncached, `read` cached and 100 written. */
function trace(n: number, read: number, model?: string): TraceEvent[] {
  const ev: TraceEvent[] = [{ type: 'user_input', text: 'Fix src/a.ts', source }];
  for (let s = 0; s < n; s++) {
    ev.push({ type: 'assistant_text', text: `step ${s}`, step: s, source });
    ev.push({ type: 'usage', input: 50, cacheRead: read, cacheWrite: 100, output: 10, step: s, ...(model ? { model } : {}), source });
  }
  return ev;
}

/** A replay result of `strategy` whose steps priced `prompt` tokens with `read` read from the cache each. */
function replay(strategy: ReplayResult['strategy'], n: number, prompt: number, read: number): ReplayResult {
  const prefix = { source: 'none', recordedTokens: 0, estimatedTokens: 120, estimated: true, tokenScale: 1.05, note: 'nothing recorded; estimated stand-in 120 tokens' };
  return { strategy, provider: 'anthropic', budget: strategy === 'variable' ? 32_000 : null, prefix, steps: Array.from({ length: n }, (_, step) => ({ step, promptTokens: prompt, cacheRead: read })) } as unknown as ReplayResult;
}

const withRecorded = (events: TraceEvent[], r: ReplayResult): ReplayResult => {
  const recorded = recordedSummary(events, r);
  return recorded ? { ...r, recorded } : r;
};

describe('[replay-truth-reported] the recorded truth beside a comparison', () => {
  it('[replay-truth-reported] recordedSummary carries the recorded totals on every replay, the accuracy on the baseline only, and nothing without usage', () => {
    const events = trace(4, 850, 'claude-made-up-1');
    const engine = recordedSummary(events, replay('variable', 4, 500, 400));
    expect(engine).toMatchObject({ callsWithUsage: 4, promptTokens: 4 * 1000, cacheRead: 4 * 850, model: 'claude-made-up-1' });
    expect(engine).not.toHaveProperty('perStep');
    expect(engine).not.toHaveProperty('accuracy');
    const baseline = recordedSummary(events, replay('full_history_baseline', 4, 800, 600))!;
    expect(baseline.accuracy).toMatchObject({ matched: 4, recordedPrompt: 4000, modelPrompt: 3200, recordedCacheRead: 3400, modelCacheRead: 2400 });
    expect(baseline.accuracy!.promptError).toBeCloseTo(-0.2, 12);
    expect(baseline.accuracy).not.toHaveProperty('perStep');
    const bare = trace(3, 0).filter((e) => e.type !== 'usage');
    expect(recordedSummary(bare, replay('full_history_baseline', 3, 800, 600))).toBeUndefined();
  });

  it('[replay-truth-reported] [replay-as-recorded] one row per trace with usage, each baseline modelled when it ran, the prefix stated, and an all-traces row summing them', () => {
    const a = trace(4, 850, 'claude-made-up-1');
    const b = trace(2, 400, 'claude-made-up-1');
    const none = trace(3, 0).filter((e) => e.type !== 'usage');
    const rows = recordedRows([
      { trace: 'a.jsonl', result: withRecorded(a, replay('variable', 4, 500, 400)) },
      { trace: 'a.jsonl', result: withRecorded(a, replay('as_recorded', 4, 800, 600)) },
      { trace: 'a.jsonl', result: withRecorded(a, replay('full_history_baseline', 4, 900, 700)) },
      { trace: 'b.jsonl', result: withRecorded(b, replay('as_recorded', 2, 500, 500)) },
      { trace: 'none.json', result: withRecorded(none, replay('as_recorded', 3, 800, 600)) },
    ]);
    expect(rows.map((r) => r.trace)).toEqual(['a.jsonl', 'b.jsonl', 'all traces']);
    expect(rows[0]).toMatchObject({ model: 'claude-made-up-1', calls: 4, promptTokens: 4000, uncachedTokens: 600, asRecorded: { matched: 4, promptTokens: 3200 }, fullHistory: { matched: 4, promptTokens: 3600 } });
    expect(rows[0]!.prefix).toEqual({ note: 'nothing recorded; estimated stand-in 120 tokens', estimated: true, tokenScale: 1.05 });
    expect(rows[0]!.hitRate).toBeCloseTo(0.85, 12);
    expect(rows[0]!.asRecorded!.hitRate).toBeCloseTo(0.75, 12);
    expect(rows[0]!.asRecorded!.cacheReadError).toBeCloseTo((2400 - 3400) / 3400, 12);
    expect(rows[0]!.fullHistory!.promptError).toBeCloseTo((3600 - 4000) / 4000, 12);
    // b: 2 steps of 550 recorded, 1000 modelled (all read); no full-history baseline ran for it.
    expect(rows[1]).toMatchObject({ calls: 2, promptTokens: 1100, asRecorded: { promptTokens: 1000, hitRate: 1 }, fullHistory: null });
    const all = rows[2]!;
    expect(all).toMatchObject({ model: 'claude-made-up-1', calls: 6, promptTokens: 5100, uncachedTokens: 900, asRecorded: { matched: 6, promptTokens: 4200 }, fullHistory: null, prefix: null });
    expect(all.hitRate).toBeCloseTo(4200 / 5100, 12);
    expect(all.asRecorded!.promptError).toBeCloseTo((4200 - 5100) / 5100, 12);
    expect(recordedRows([{ trace: 'a.jsonl', result: withRecorded(a, replay('variable', 4, 500, 400)) }, { trace: 'b.jsonl', result: withRecorded(b, replay('variable', 2, 500, 400)) }], { total: false }).map((r) => r.trace)).toEqual(['a.jsonl', 'b.jsonl']);
  });

  it('[replay-truth-reported] without a baseline a row has no modelled figures, and the sum of several models names none', () => {
    const rows = recordedRows([
      { trace: 'a.jsonl', result: withRecorded(trace(2, 850, 'model-one'), replay('variable', 2, 500, 400)) },
      { trace: 'b.jsonl', result: withRecorded(trace(2, 850, 'model-two'), replay('as_recorded', 2, 500, 400)) },
    ]);
    expect(rows[0]).toMatchObject({ asRecorded: null, fullHistory: null });
    expect(rows[1]!.asRecorded).not.toBeNull();
    expect(rows[2]).toMatchObject({ trace: 'all traces', model: null, asRecorded: null, fullHistory: null });
    const text = formatRecordedTable(rows).split('\n');
    expect(text[0]).toMatch(/^recorded \(provider\)\s+model\s+calls\s+prompt tokens\s+uncached\s+hit rate\s+total USD\s+re-reads\s+cache model\s+as recorded \(model\)\s+error\s+full history \(model\)\s+error\s+prefix$/);
    // Made-up models have no list price: no dollars. These traces read nothing: no re-reads.
    expect(text[2]).toMatch(/^a\.jsonl\s+model-one\s+2\s+2,000\s+300\s+85\.0%\s+-\s+0\s+-\s+-\s+-\s+-\s+-\s+estimated, scale 1\.05$/);
    expect(text[3]).toMatch(/^b\.jsonl\s+model-two\s+2\s+2,000\s+300\s+85\.0%\s+-\s+0\s+anthropic\s+1,000\s+-50\.0%\s+-\s+-\s+estimated, scale 1\.05$/);
    expect(text[5]).toBe('fixed prefix (sent by every row, outside every budget):');
    expect(text.slice(6)).toEqual(['  a.jsonl: nothing recorded; estimated stand-in 120 tokens', '  b.jsonl: nothing recorded; estimated stand-in 120 tokens']);
    expect(rows.map((r) => r.costUsd)).toEqual([null, null, null]);
  });

  it('[replay-rereads] [replay-truth-reported] the recorded re-reads travel with the recorded usage, per trace and summed', () => {
    const read = (id: string, step: number): TraceEvent[] => [
      { type: 'tool_call', callId: id, name: 'Read', arguments: JSON.stringify({ file_path: 'src/a.ts' }), step, source },
      { type: 'tool_result', callId: id, content: 'export const answer = computeAnswer();', isError: false, source },
      { type: 'usage', input: 50, cacheRead: 850, cacheWrite: 100, output: 10, step, source },
    ];
    const twice = [...trace(1, 850), ...read('r1', 1), ...read('r2', 2), ...read('r3', 3)];
    const once = [...trace(1, 850), ...read('r1', 1)];
    expect(recordedSummary(twice, replay('variable', 4, 500, 400))?.rereads).toBe(2);
    const rows = recordedRows([
      { trace: 'twice.jsonl', result: withRecorded(twice, replay('variable', 4, 500, 400)) },
      { trace: 'once.jsonl', result: withRecorded(once, replay('variable', 2, 500, 400)) },
    ]);
    expect(rows.map((r) => [r.trace, r.rereads])).toEqual([
      ['twice.jsonl', 2],
      ['once.jsonl', 0],
      ['all traces', 2],
    ]);
    expect(formatRecordedTable(rows).split('\n')[2]).toMatch(/^twice\.jsonl\s+-\s+4\s+4,000\s+600\s+85\.0%\s+-\s+2\s/);
  });

  it('[cost-usd] the recorded usage is priced at the recorded model’s list price, 1-hour writes at the 1-hour rate; an unpriced model adds nothing to the sum', () => {
    const oneHour = trace(3, 850, 'claude-opus-4-6').map((e) => (e.type === 'usage' ? { ...e, cacheWrite1h: 60 } : e));
    const truth = recordedTruth(oneHour);
    // Per step: 50 input at $5, 850 read at $0.50, 40 written for 5 minutes at $6.25 and 60 for an hour at $10, 10 output at $25 (per million).
    const step = (50 * 5 + 850 * 0.5 + 40 * 6.25 + 60 * 10 + 10 * 25) / 1e6;
    expect(truth.cacheWrite1h).toBe(180);
    expect(truth.costUsd!.total).toBeCloseTo(3 * step, 12);
    expect(truth.pricing.note).toMatch(/^claude-opus-4-6 .*read 2026-12-01\)$/);
    const rows = recordedRows([
      { trace: 'opus.jsonl', result: withRecorded(oneHour, replay('variable', 3, 500, 400)) },
      { trace: 'made-up.jsonl', result: withRecorded(trace(2, 850, 'model-one'), replay('variable', 2, 500, 400)) },
    ]);
    expect(rows.map((r) => [r.trace, r.costUsd === null ? null : Number(r.costUsd.toFixed(9))])).toEqual([
      ['opus.jsonl', Number((3 * step).toFixed(9))],
      ['made-up.jsonl', null],
      ['all traces', Number((3 * step).toFixed(9))],
    ]);
    expect(recordedTruth(trace(2, 850)).costUsd).toBeNull();
  });

  it('[replay-truth-reported] the baseline is judged with the cache model of the provider that billed the recording, whatever provider the run prices with', () => {
    const quarter: Tokenizer = { encoding: 'quarter', count: (t) => Math.ceil(t.length / 4) };
    const codex = trace(5, 850, 'gpt-5.4');
    for (const e of codex) if (e.type === 'assistant_text') e.text = `${e.text}: reading src/app.ts and its tests\n`.repeat(200);
    const job = { trace: 'codex.jsonl', strategy: 'full_history_baseline' as const, budget: 32_000, provider: 'anthropic' as const, recorded: true };
    const r = runReplayJob(job, codex, quarter);
    // The run's own figures stay Anthropic's; the accuracy is OpenAI's, as a baseline priced by it gives.
    expect(r.provider).toBe('anthropic');
    const openai = replayFullHistoryBaseline(codex, { provider: 'openai', tokenizer: quarter });
    const { perStep: _s, ...expected } = modelAccuracy(recordedTruth(codex), openai);
    expect(r.recorded!.accuracy).toEqual({ ...expected, provider: 'openai' });
    const anthropic = modelAccuracy(recordedTruth(codex), r);
    expect(anthropic.modelCacheRead).not.toBe(expected.modelCacheRead);
    // A model of no known provider (a DeepSeek run) is judged with the run's own cache model.
    const other = runReplayJob(job, trace(5, 850, 'deepseek-chat'), quarter);
    // Without the flag (a live session's shadow replay keeps its own figures) nothing is attached.
    expect(runReplayJob({ ...job, recorded: false }, codex, quarter).recorded).toBeUndefined();
    expect(other.recorded!.accuracy!.provider).toBe('anthropic');
    expect(other.recorded!.accuracy!.modelCacheRead).toBe(other.steps.reduce((n, s) => n + s.cacheRead, 0));
  });

  it('[replay-truth-reported] cache reads without one cache write are marked where the provider bills writes (Claude) or the model is unnamed, not for OpenAI or DeepSeek', () => {
    const noWrites = (model?: string) => trace(3, 850, model).map((e) => (e.type === 'usage' ? { ...e, cacheWrite: 0 } : e));
    const rows = recordedRows(
      [
        ['converted.json', undefined],
        ['claude.jsonl', 'claude-sonnet-4-6'],
        ['codex.jsonl', 'gpt-5.4'],
        ['deepseek.traj.json', 'deepseek-chat'],
      ].map(([trace, model]) => ({ trace: trace!, result: withRecorded(noWrites(model), replay('variable', 3, 500, 400)) })),
    );
    expect(rows.map((r) => [r.trace, r.writesMissing])).toEqual([
      ['converted.json', true],
      ['claude.jsonl', true],
      ['codex.jsonl', false],
      ['deepseek.traj.json', false],
      ['all traces', true],
    ]);
    expect(rows[0]).toMatchObject({ cacheWriteTokens: 0, uncachedTokens: 150 });
    const text = formatRecordedTable(rows).split('\n');
    expect(text[2]).toMatch(/\s\*94\.4%\s/);
    expect(text[4]).toMatch(/\s94\.4%\s/);
    expect(text[4]).not.toMatch(/\*/);
    expect(text.at(-1)).toMatch(/^\* cache reads but no cache writes from a provider that bills them/);
    const billed = recordedRows([{ trace: 'a.jsonl', result: withRecorded(trace(3, 850), replay('variable', 3, 500, 400)) }]);
    expect(formatRecordedTable(billed)).not.toMatch(/\*/);
  });
});
