import { describe, expect, it } from 'vitest';
import { allTracesTotals } from '../../../../../renderer/store/comparisons/comparisonsSelectors';
import { comparisonCsv, comparisonJson, CSV_ALL_TRACES_COLUMNS, CSV_COLUMNS, CSV_RECORDED_COLUMNS, exportName } from '../../../../../renderer/views/compare/exportResults';
import { makeComparison, makeRecorded, makeTrace, makeTwoTraceComparison } from '../../compareMemoryFixtures';

describe('comparison exports', () => {
  const c = makeComparison();
  const traces = [makeTrace('tr_a', { name: 'a "quoted", name.jsonl' }), makeTrace('tr_other')];

  it('CSV: a header and one line per replay with the totals, quoting where needed, empty for null', () => {
    const csv = comparisonCsv(c, traces);
    const lines = csv.split('\n');
    expect(lines[0]).toBe(CSV_COLUMNS.join(','));
    expect(lines).toHaveLength(4); // header, two replays, final newline
    expect(lines[3]).toBe('');
    const v = c.results[0]!.totals;
    const usd = v.costUsd!;
    expect(lines[1]).toBe(
      ['tr_a', '"a ""quoted"", name.jsonl"', 'variable', 32000, v.steps, v.promptTokens, v.meanPromptTokens, v.uncachedTokens, usd.prompt, usd.total, usd.input, usd.cacheRead, usd.cacheWrite, usd.output, 'claude-sonnet-4-5', `"${v.priceNote}"`, '5m', 'default', 200_000, `"table: ${v.window!.why}"`, v.hitRate, v.prefixReuse, 0.75, 0.6, 10, 6, 2, 0, 0, 1, 0.4].join(','),
    );
    // The baseline has no budget and no recall.
    expect(lines[2]).toMatch(/^tr_a,"a ""quoted"", name\.jsonl",full_history_baseline,,3,750,250,750,0\.00225,0\.00225,0\.00225,0,0,0,claude-sonnet-4-5,".*",5m,default,200000,"table: recorded model claude-sonnet-4-5 \(https:[^"]*\)",0,0\.5,,,0,0,0,0,0,1,0\.4$/);
    // A replay that checked no window leaves both cells empty.
    const unchecked = makeComparison({ results: [{ ...c.results[0]!, totals: { ...v, window: null } }] });
    expect(comparisonCsv(unchecked, traces).split('\n')[1]).toContain(',5m,default,,,');
    // No list price: the dollar cells are empty, never 0.
    const unpriced = makeComparison({ results: [{ ...c.results[0]!, totals: { ...v, costUsd: null } }] });
    expect(comparisonCsv(unpriced, traces).split('\n')[1]).toContain(`${v.uncachedTokens},,,,,,,claude-sonnet-4-5`);
  });

  it('JSON: the whole comparison with its series, and only the traces it names', () => {
    const parsed = JSON.parse(comparisonJson(c, traces));
    expect(parsed).toEqual({ format: 'strata-comparison', version: 1, comparison: c, allTraces: [], traces: [traces[0]] });
    expect(parsed.comparison.results[0].series).toHaveLength(3);
  });

  it('JSON: includes what the provider recorded, with the modelled baselines or null', () => {
    const recorded = [makeRecorded('tr_a'), makeRecorded('tr_other', { model: null, asRecorded: null, fullHistory: null })];
    const parsed = JSON.parse(comparisonJson(makeComparison({ traceIds: ['tr_a', 'tr_other'], recorded }), traces));
    expect(parsed.comparison.recorded).toEqual(recorded);
    expect(parsed.comparison.recorded[0].asRecorded.promptError).toBe(0.0359);
    expect(parsed.comparison.recorded[0].fullHistory.promptError).toBe(0.1979);
    expect(parsed.comparison.recorded[1].asRecorded).toBeNull();
    // The CSV keeps its columns.
    expect(comparisonCsv(makeComparison({ recorded }), traces).split('\n')[0]).toBe(CSV_COLUMNS.join(','));
  });

  it('CSV carries what the JSON does: the all-traces rows and the recorded table, each a section with its own header', () => {
    const two = makeTwoTraceComparison({ recorded: [makeRecorded('tr_a'), makeRecorded('tr_b', { model: null, asRecorded: null, fullHistory: null })] });
    const sections = comparisonCsv(two, [makeTrace('tr_a', { name: 'older.jsonl' }), makeTrace('tr_b', { name: 'newer.jsonl' })]).trimEnd().split('\n\n').map((s) => s.split('\n'));
    expect(sections.map((s) => s[0])).toEqual([CSV_COLUMNS.join(','), CSV_ALL_TRACES_COLUMNS.join(','), CSV_RECORDED_COLUMNS.join(',')]);
    expect(sections[0]).toHaveLength(1 + two.results.length);
    const all = allTracesTotals(two.results);
    expect(sections[1]!.slice(1)).toEqual(all.map((a) => ['all 2 traces', a.strategy, a.budget ?? '', a.traces, a.pricedTraces, a.steps, a.promptTokens, a.uncachedTokens, a.promptUsd, a.totalUsd, a.ttl, a.hitRate, a.prefixReuse, a.neededReferenceRecall ?? '', a.pooledReferenceRecall ?? '', a.rereadsForced, a.orphans, a.invalid, a.refreshes].join(',')));
    const r = two.recorded[0]!;
    expect(sections[2]![1]).toBe(['tr_a', 'older.jsonl', r.model, r.calls, r.promptTokens, r.uncachedTokens, r.cacheWriteTokens, r.writesMissing, r.hitRate, r.costUsd, r.rereads, r.asRecorded!.provider, r.asRecorded!.promptTokens, r.asRecorded!.hitRate, r.asRecorded!.promptError, r.asRecorded!.cacheReadError, r.fullHistory!.provider, r.fullHistory!.promptTokens, r.fullHistory!.hitRate, r.fullHistory!.promptError, r.fullHistory!.cacheReadError, r.prefix ? `"${r.prefix.note}"`.replace(/^"([^,"\n]*)"$/, '$1') : '', r.prefix?.estimated ?? '', r.prefix?.tokenScale ?? ''].join(','));
    // A trace without a recorded model leaves its baselines' cells empty.
    expect(sections[2]![2]).toMatch(/^tr_b,newer\.jsonl,,\d+,/);
    expect(JSON.parse(comparisonJson(two, [])).allTraces).toEqual(JSON.parse(JSON.stringify(all)));
  });

  it('names files after the comparison', () => {
    expect(exportName(c, 'csv')).toBe('strata-cmp-1.csv');
  });
});
