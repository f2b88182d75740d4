import { describe, expect, it } from 'vitest';
import type { Tokenizer } from '../../../../../engine/tokens/Tokenizer';
import { compareCsv, compareRows, formatCompareTable } from '../../../../../engine/traces/compare/compareTable';
import { replayFullHistoryBaseline } from '../../../../../engine/traces/replay/replayTranscript';
import { replayTrace } from '../../../../../engine/traces/replay/replayTrace';
import type { TraceEvent } from '../../../../../engine/traces/TraceEvent';

const source = { file: 'made-up.jsonl', line: 1 };
const quarter: Tokenizer = { encoding: 'quarter', count: (t) => Math.ceil(t.length / 4) };
const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const iso = (s: number) => new Date(T0 + s * 1000).toISOString();

function session(n: number): TraceEvent[] {
  const ev: TraceEvent[] = [{ type: 'user_input', text: 'Fix src/a.ts', at: iso(0), source }];
  for (let s = 0; s < n; s++) {
    ev.push({ type: 'tool_call', callId: `c${s}`, name: 'Read', arguments: JSON.stringify({ file_path: `src/f${s}.ts` }), step: s, at: iso(s * 10), source });
    ev.push({ type: 'tool_result', callId: `c${s}`, content: `export const value${s} = ${s};\n`.repeat(100), isError: false, at: iso(s * 10 + 2), source });
  }
  return ev;
}

describe('[compare-invalid] every comparison output counts the requests a provider would refuse', () => {
  const a = session(6);
  const b = session(4);
  const open = replayFullHistoryBaseline(a, { provider: 'anthropic', tokenizer: quarter });
  // A window the last three requests of the first trace and the last of the second go over.
  const window = open.steps[2]!.promptTokens;
  const results = [
    replayFullHistoryBaseline(a, { provider: 'anthropic', tokenizer: quarter, window }),
    replayFullHistoryBaseline(b, { provider: 'anthropic', tokenizer: quarter, window }),
    replayTrace(a, { strategy: 'variable', budget: 32_000, provider: 'anthropic', tokenizer: quarter }),
  ];

  it('[compare-invalid] a row sums its traces\' invalid requests; the table shows them beside the orphans, the CSV as a column', () => {
    const expected = results[0]!.totals.invalidRequests + results[1]!.totals.invalidRequests;
    expect([results[0]!.totals.invalidRequests, results[1]!.totals.invalidRequests]).toEqual([3, 1]);
    const rows = compareRows(results);
    expect(rows.find((r) => r.name === 'full_history_baseline')!.invalid).toBe(expected);
    expect(rows.find((r) => r.name === 'variable')!.invalid).toBe(0);
    const [head, , ...body] = formatCompareTable(rows).split('\n');
    const cols = head!.trim().split(/\s{2,}/);
    expect(cols.slice(cols.indexOf('orphans'), cols.indexOf('orphans') + 2)).toEqual(['orphans', 'invalid']);
    const cell = (line: string) => line.trim().split(/\s{2,}/)[cols.indexOf('invalid')];
    expect(cell(body.find((l) => l.startsWith('full_history_baseline'))!)).toBe(String(expected));
    expect(cell(body.find((l) => l.startsWith('variable'))!)).toBe('0');
    const [csvHead, ...csvLines] = compareCsv(rows).trim().split('\n');
    const at = csvHead!.split(',').indexOf('invalid');
    expect(at).toBe(csvHead!.split(',').indexOf('orphans') + 1);
    expect(csvLines.map((l) => l.split(',')[0] + '=' + l.split(',')[at])).toEqual(rows.map((r) => `${r.name}=${r.invalid}`));
  });
});
