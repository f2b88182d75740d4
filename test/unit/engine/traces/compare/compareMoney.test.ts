import { describe, expect, it } from 'vitest';
import type { Tokenizer } from '../../../../../engine/tokens/Tokenizer';
import { compareNotes, MONEY_NOTE, ttlSummary } from '../../../../../engine/traces/compare/compareNotes';
import { compareCsv, compareRows, formatCompareTable, usd } from '../../../../../engine/traces/compare/compareTable';
import { replayFullHistoryBaseline } from '../../../../../engine/traces/replay/replayTranscript';
import { replayTrace } from '../../../../../engine/traces/replay/replayTrace';
import type { TraceEvent } from '../../../../../engine/traces/TraceEvent';

const source = { file: 'made-up.jsonl', line: 1 };
const quarter: Tokenizer = { encoding: 'quarter', count: (t) => Math.ceil(t.length / 4) };

/** A session of `n` steps a minute apart whose usage names `model` and writes its cache for `ttl`. */
function session(n: number, model: string, ttl: '5m' | '1h' | 'unsplit'): TraceEvent[] {
  const T0 = Date.parse('2026-03-01T10:00:00.000Z');
  const iso = (min: number) => new Date(T0 + min * 60_000).toISOString();
  const ev: TraceEvent[] = [{ type: 'user_input', text: 'Fix src/a.ts', at: iso(0), source }];
  for (let s = 0; s < n; s++) {
    ev.push({ type: 'tool_call', callId: `c${s}`, name: 'Read', arguments: JSON.stringify({ file_path: `src/f${s}.ts` }), step: s, at: iso(s), source });
    const split = ttl === 'unsplit' ? {} : { cacheWrite1h: ttl === '1h' ? 400 : 0 };
    ev.push({ type: 'usage', input: 10, cacheRead: 3000, cacheWrite: 400, ...split, output: 20, model, step: s, at: iso(s), source });
    ev.push({ type: 'tool_result', callId: `c${s}`, content: `export const value${s} = ${s};\n`.repeat(200), isError: false, at: iso(s), source });
  }
  return ev;
}

describe('[compare-money] a comparison in US dollars, with its prices and cache TTLs stated', () => {
  const opus = session(4, 'claude-opus-4-6', '1h');
  const madeUp = session(3, 'claude-made-up-1', 'unsplit');
  const entries = [
    { trace: 'opus.jsonl', result: replayFullHistoryBaseline(opus, { provider: 'anthropic', tokenizer: quarter }) },
    { trace: 'opus.jsonl', result: replayTrace(opus, { strategy: 'variable', budget: 32_000, provider: 'anthropic', tokenizer: quarter }) },
    { trace: 'made-up.jsonl', result: replayFullHistoryBaseline(madeUp, { provider: 'anthropic', tokenizer: quarter }) },
    { trace: 'made-up.jsonl', result: replayTrace(madeUp, { strategy: 'variable', budget: 32_000, provider: 'anthropic', tokenizer: quarter }) },
  ];
  const rows = compareRows(entries.map((e) => e.result));

  it('[compare-money] a row sums the dollars of the traces with a list price, says how many those are, and keeps the token figures', () => {
    const baseline = rows.find((r) => r.name === 'full_history_baseline')!;
    const opusBaseline = entries[0]!.result.totals;
    expect(baseline).toMatchObject({ traces: 2, pricedTraces: 1, models: 'claude-opus-4-6, claude-made-up-1 (no list price)', ttl: '1h: from the recording ×1; 5m: default ×1' });
    expect(baseline.promptUsd).toBe(opusBaseline.costUsd!.prompt);
    expect(baseline.totalUsd).toBe(opusBaseline.costUsd!.total);
    expect(baseline.cacheWriteUsd).toBeCloseTo((opusBaseline.cacheWrite * 10) / 1e6, 12);
    expect(baseline.promptTokens).toBe(entries[0]!.result.totals.promptTokens + entries[2]!.result.totals.promptTokens);
    // Only unpriced traces: no dollars at all, never 0.
    const unpriced = compareRows([entries[2]!.result])[0]!;
    expect([unpriced.promptUsd, unpriced.totalUsd, unpriced.pricedTraces]).toEqual([null, null, 0]);
  });

  it('[compare-money] the table has no unitless cost: prompt USD and total USD, * where a sum leaves unpriced traces out', () => {
    const text = formatCompareTable(rows).split('\n');
    expect(text[0]).toMatch(/\bprompt USD\s+total USD\b/);
    expect(text[0]).not.toMatch(/cost units/);
    const baseline = rows.find((r) => r.name === 'full_history_baseline')!;
    expect(text.find((l) => l.startsWith('full_history_baseline'))).toContain(`*${usd(baseline.promptUsd)}`);
    expect(formatCompareTable(compareRows([entries[0]!.result]))).toContain(`  ${usd(baseline.promptUsd)}  `);
    expect(usd(12.345)).toBe('$12.35');
    expect(usd(1234.5)).toBe('$1,234.50');
    expect(usd(0.01234)).toBe('$0.0123');
    expect(usd(null)).toBe('-');
    // The CSV carries every dollar column and the TTL; null is an empty cell.
    const [head, ...lines] = compareCsv(rows).trim().split('\n');
    expect(head!.split(',')).toEqual(expect.arrayContaining(['promptUsd', 'totalUsd', 'inputUsd', 'cacheReadUsd', 'cacheWriteUsd', 'outputUsd', 'pricedTraces', 'models', 'ttl']));
    expect(lines.join('\n')).not.toMatch(/\bcost\b/);
  });

  it('[compare-money] the notes give the unit, each priced model’s rates with source and date, the unpriced models, and each trace’s cache TTL with why', () => {
    const notes = compareNotes(entries);
    expect(notes[0]).toBe(MONEY_NOTE);
    expect(notes).toContain('price: claude-opus-4-6 (Claude Opus 4.5, 4.6, 4.7, 4.8): $5 input, $0.5 cache read, $6.25 5-minute / $10 1-hour cache write, $25 output per million tokens (https://platform.claude.com/docs/en/about-claude/pricing, read 2026-12-01)');
    expect(notes).toContain('no list price for claude-made-up-1 (made-up.jsonl): left out of the dollar figures; * marks a sum over the other traces');
    expect(notes).toContain('cache TTL of the breakpoints: 1h: from the recording (opus.jsonl); 5m: default (made-up.jsonl)');
    expect(notes.some((n) => /OpenAI/.test(n))).toBe(false);
    // A trace that names no model is priced at the provider's default, and the note says so; --model says so too.
    const unnamed = session(2, 'x', 'unsplit').map((e) => (e.type === 'usage' ? { ...e, model: undefined } : e));
    const byDefault = compareNotes([{ trace: 'plain.json', result: replayFullHistoryBaseline(unnamed, { provider: 'anthropic', tokenizer: quarter }) }]);
    expect(byDefault).toContainEqual(expect.stringMatching(/^price \(the default model, for traces that name none: plain\.json\): claude-sonnet-4-5 \(Claude Sonnet 4\.5, 4\.6\): \$3 input/));
    const chosen = compareNotes([{ trace: 'opus.jsonl', result: replayFullHistoryBaseline(opus, { provider: 'anthropic', tokenizer: quarter, model: 'claude-haiku-4-5' }) }]);
    expect(chosen).toContainEqual(expect.stringMatching(/^price \(--model\): claude-haiku-4-5 \(Claude Haiku 4\.5\): \$1 input/));
    // --ttl for every trace, priced by OpenAI's cache model: said so.
    const forced = compareNotes([{ trace: 'opus.jsonl', result: replayFullHistoryBaseline(opus, { provider: 'openai', tokenizer: quarter, ttl: '5m' }) }], { ttl: 'the TTL option', model: 'the model option' });
    expect(forced).toContain('cache TTL of the breakpoints: 5m: the TTL option (opus.jsonl)');
    expect(forced.at(-1)).toMatch(/^the OpenAI cache model has no lifetime choice/);
  });

  it('[compare-money] says where a model’s own caching is approximated by the comparison’s cache model', () => {
    const deepseek = session(3, 'deepseek-chat', 'unsplit');
    const notes = compareNotes([
      { trace: 'ds.json', result: replayFullHistoryBaseline(deepseek, { provider: 'anthropic', tokenizer: quarter }) },
      { trace: 'opus.jsonl', result: replayFullHistoryBaseline(opus, { provider: 'anthropic', tokenizer: quarter }) },
    ]);
    expect(notes).toContain("deepseek-chat: DeepSeek's disk cache (prefix units kept for hours to days) is not modelled: the reads come from the comparison's cache model and are billed at the cache-hit price, everything else at the cache-miss price (ds.json)");
    // A Claude model priced by the Anthropic cache model needs no such line.
    expect(notes.filter((n) => n.startsWith('claude-opus-4-6:'))).toEqual([]);
    const codex = compareNotes([{ trace: 'codex.jsonl', result: replayFullHistoryBaseline(session(2, 'gpt-5.4', 'unsplit'), { provider: 'anthropic', tokenizer: quarter }) }]);
    expect(codex).toContainEqual(expect.stringMatching(/^gpt-5\.4: OpenAI's automatic prefix caching is approximated by the Anthropic cache model.*\(codex\.jsonl\)$/));
  });

  it('[compare-money] ttlSummary groups the TTLs of several replays', () => {
    expect(ttlSummary([])).toBe('-');
    expect(ttlSummary([{ ttl: '1h', source: 'recording' }, { ttl: '1h', source: 'recording' }])).toBe('1h: from the recording');
    expect(ttlSummary([{ ttl: '1h', source: 'recording' }, { ttl: '5m', source: 'default' }, { ttl: '1h', source: 'recording' }])).toBe('1h: from the recording ×2; 5m: default ×1');
  });
});
