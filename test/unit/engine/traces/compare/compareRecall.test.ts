import { describe, expect, it } from 'vitest';
import type { Tokenizer } from '../../../../../engine/tokens/Tokenizer';
import { compareRows, formatCompareTable, RECALL_NOTE } from '../../../../../engine/traces/compare/compareTable';
import { recordedRereads } from '../../../../../engine/traces/replay/neededContent';
import { replayAsRecorded, replayFullHistoryBaseline } from '../../../../../engine/traces/replay/replayTranscript';
import type { TraceEvent } from '../../../../../engine/traces/TraceEvent';

const source = { file: 'made-up.jsonl', line: 1 };
const quarter: Tokenizer = { encoding: 'quarter', count: (t) => Math.ceil(t.length / 4) };
const FILE = ['export function saveToken(token: string) {', '  const stored = encrypt(token);', '  return stored;', '}'].join('\n');
const read = (id: string, step: number, path = 'src/a.ts'): TraceEvent[] => [
  { type: 'tool_call', callId: id, name: 'Read', arguments: JSON.stringify({ file_path: path }), step, source },
  { type: 'tool_result', callId: id, content: FILE.replace('saveToken', `save${id}`), isError: false, source },
];

describe('[replay-recall] [replay-rereads] recall and re-reads in the comparison table', () => {
  // Trace a: one step reads a.ts, the next reads it again after a compaction (r2), the last reads b.ts.
  const a: TraceEvent[] = [
    { type: 'user_input', text: 'Fix src/a.ts', source },
    { type: 'tool_call', callId: 'r1', name: 'Read', arguments: JSON.stringify({ file_path: 'src/a.ts' }), step: 0, source },
    { type: 'tool_result', callId: 'r1', content: FILE, isError: false, source },
    { type: 'compaction', summary: 'Summary: fixing src/a.ts', source },
    { type: 'tool_call', callId: 'r2', name: 'Read', arguments: JSON.stringify({ file_path: 'src/a.ts' }), step: 1, source },
    { type: 'tool_result', callId: 'r2', content: FILE, isError: false, source },
    ...read('r3', 2, 'src/b.ts'),
  ];
  // Trace b: one read only (needed, never held).
  const b: TraceEvent[] = [{ type: 'user_input', text: 'Look at src/c.ts', source }, ...read('r4', 0, 'src/c.ts')];
  const opts = { provider: 'anthropic' as const, tokenizer: quarter };
  const results = [replayFullHistoryBaseline(a, opts), replayAsRecorded(a, opts), replayFullHistoryBaseline(b, opts), replayAsRecorded(b, opts)];
  const rows = compareRows(results);

  it('[replay-recall] a row pools held over needed across its traces and averages the steps that need content; [replay-rereads] it sums the forced re-reads', () => {
    const full = rows.find((r) => r.name === 'full_history_baseline')!;
    const asRecorded = rows.find((r) => r.name === 'as_recorded')!;
    // Full history: a's re-read is held (1 of 3 in a), b's first read is not: 1 of 4, steps 0, 1, 0, 0.
    expect([full.references, full.referencesHeld, full.pooledReferenceRecall, full.neededReferenceRecall, full.rereadsForced]).toEqual([4, 1, 0.25, 0.25, 0]);
    // As recorded: the compaction dropped a.ts, so its re-read is neither held nor free.
    expect([asRecorded.references, asRecorded.referencesHeld, asRecorded.pooledReferenceRecall, asRecorded.rereadsForced]).toEqual([4, 0, 0, 1]);
  });

  it('[replay-recall] [replay-rereads] the table shows recall pooled and per step and the forced re-reads, and a note says what they mean', () => {
    const [head, , ...body] = formatCompareTable(rows).split('\n');
    expect(head).toMatch(/\bprefix reuse\s+recall pooled\s+recall\/step\s+forced re-reads\s+orphans\s+invalid\s+refreshes$/);
    expect(body.find((l) => l.startsWith('full_history_baseline'))).toMatch(/\s25\.0%\s+25\.0%\s+0\s+0\s+0\s+0$/);
    expect(body.find((l) => l.startsWith('as_recorded'))).toMatch(/\s0\.0%\s+0\.0%\s+1\s+0\s+0\s+0$/);
    expect(RECALL_NOTE).toMatch(/a name alone does not count/);
  });

  it('[replay-rereads] a re-read answered by a client stub (no content) counts as a recorded re-read and needs nothing', () => {
    const stub = [...a.slice(0, 5), { type: 'tool_result', callId: 'r2', content: 'File unchanged since last read. The content from the earlier Read tool_result is still current.', isError: false, source } as TraceEvent];
    expect(recordedRereads(stub)).toBe(1);
    const r = replayAsRecorded(stub, opts);
    expect(r.steps.map((s) => [s.references, s.rereadsForced])).toEqual([
      [1, 0],
      [0, 0],
    ]);
  });
});
