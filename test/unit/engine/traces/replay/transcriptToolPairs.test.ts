import { describe, expect, it } from 'vitest';
import type { HistoryMessage } from '../../../../../engine/conversation/Message';
import { checkAnthropicOrder, checkOpenAIOrder } from '../../../../support/providerValidity';
import type { Tokenizer } from '../../../../../engine/tokens/Tokenizer';
import { replayAsRecorded, replayFullHistoryBaseline } from '../../../../../engine/traces/replay/replayTranscript';
import { requestInvalidity } from '../../../../../engine/traces/replay/requestValidity';
import { NO_RESULT_RECORDED, transcriptVisitor } from '../../../../../engine/traces/replay/transcript';
import { walkTrace } from '../../../../../engine/traces/replay/walkTrace';
import type { TraceEvent } from '../../../../../engine/traces/TraceEvent';

const source = { file: 'made-up.jsonl', line: 1 };
const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const iso = (s: number) => new Date(T0 + s * 1000).toISOString();
const quarter: Tokenizer = { encoding: 'quarter', count: (t) => Math.ceil(t.length / 4) };
const userIn = (text: string, s: number): TraceEvent => ({ type: 'user_input', text, at: iso(s), source });
const call = (callId: string, step: number): TraceEvent => ({ type: 'tool_call', callId, name: 'Bash', arguments: JSON.stringify({ command: `run ${callId}` }), step, at: iso(step * 10), source });
const result = (callId: string, s: number, content = `output of ${callId}\n`.repeat(20)): TraceEvent => ({ type: 'tool_result', callId, content, isError: false, at: iso(s), source });
const note = (text: string, s: number): TraceEvent => ({ type: 'context', role: 'user', kind: 'environment_context', text, at: iso(s), source });

/** The history each step of the main agent would send, as the full-history transcript keeps it. */
function requests(events: readonly TraceEvent[]): HistoryMessage[][] {
  const out: HistoryMessage[][] = [];
  walkTrace(events, transcriptVisitor(events, 'full_history', { step: (t) => out.push(t.messages()) }));
  return out;
}
const shape = (ms: readonly HistoryMessage[]) => ms.map((m) => (m.role === 'tool' ? `tool:${m.toolCallId}` : m.role === 'assistant' ? `assistant:${m.toolCalls.map((c) => c.id).join('+')}` : `user:${m.content.slice(0, 12)}`));

describe('[replay-tool-pairs] the transcript sends tool pairs as the recorded clients did', () => {
  it('[replay-tool-pairs] a note recorded between a call and its result is sent after the result (Codex writes one there)', () => {
    const ev: TraceEvent[] = [userIn('Run the tests', 0), call('c1', 1), note('Approved command prefix saved', 12), result('c1', 13), call('c2', 2), result('c2', 22), { type: 'assistant_text', text: 'done', step: 3, at: iso(30), source }];
    const rs = requests(ev);
    expect(shape(rs[1]!)).toEqual(['user:Run the test', 'assistant:c1', 'tool:c1', 'user:Approved com']);
    for (const r of rs) expect([checkAnthropicOrder(r), checkOpenAIOrder(r), requestInvalidity({ messages: r, tokens: 0 })]).toEqual([[], [], undefined]);
    const baseline = replayFullHistoryBaseline(ev, { provider: 'anthropic', tokenizer: quarter });
    expect(baseline.totals.invalidRequests).toBe(0);
    expect(baseline.repairs).toMatchObject({ standInResults: 0, lateResults: 0 });
  });

  it('[replay-tool-pairs] a call never answered before the next call gets a stand-in error result, counted; the requests stay valid', () => {
    const ev: TraceEvent[] = [userIn('Explore the repo', 0), call('c1', 1), call('c2', 1), result('c2', 12), call('c3', 2), result('c3', 22), userIn('Now summarise', 25), { type: 'assistant_text', text: 'summary', step: 3, at: iso(30), source }];
    const rs = requests(ev);
    expect(shape(rs[1]!)).toEqual(['user:Explore the ', 'assistant:c1+c2', 'tool:c2', 'tool:c1']);
    const standIn = rs[1]!.find((m) => m.role === 'tool' && m.toolCallId === 'c1');
    expect(standIn).toMatchObject({ content: NO_RESULT_RECORDED, isError: true });
    for (const r of rs) expect([checkAnthropicOrder(r), checkOpenAIOrder(r), requestInvalidity({ messages: r, tokens: 0 })]).toEqual([[], [], undefined]);
    for (const replay of [replayFullHistoryBaseline, replayAsRecorded]) {
      const r = replay(ev, { provider: 'anthropic', tokenizer: quarter });
      expect(r.totals.invalidRequests).toBe(0);
      expect(r.repairs).toMatchObject({ standInResults: 1, lateResults: 0 });
    }
  });

  it('[replay-tool-pairs] a result recorded after the next call took its stand-in\'s place for the later requests', () => {
    const ev: TraceEvent[] = [userIn('Read both', 0), call('c1', 1), call('c2', 1), result('c1', 12), call('c3', 2), result('c2', 21, 'the late output'), result('c3', 22), { type: 'assistant_text', text: 'done', step: 3, at: iso(30), source }];
    const rs = requests(ev);
    const c2At = (r: readonly HistoryMessage[]) => r.find((m) => m.role === 'tool' && m.toolCallId === 'c2')?.content;
    expect(c2At(rs[1]!)).toBe(NO_RESULT_RECORDED);
    expect(c2At(rs[2]!)).toBe('the late output');
    expect(shape(rs[2]!)).toEqual(['user:Read both', 'assistant:c1+c2', 'tool:c1', 'tool:c2', 'assistant:c3', 'tool:c3']);
    for (const r of rs) expect([checkAnthropicOrder(r), checkOpenAIOrder(r), requestInvalidity({ messages: r, tokens: 0 })]).toEqual([[], [], undefined]);
    expect(replayFullHistoryBaseline(ev, { provider: 'anthropic', tokenizer: quarter }).repairs).toMatchObject({ standInResults: 1, lateResults: 1 });
  });
});

describe('[replay-invalid] the transcript baselines judged like an API', () => {
  const long: TraceEvent[] = [userIn('Fix the bug', 0)];
  for (let s = 0; s < 6; s++) long.push(call(`c${s}`, s), result(`c${s}`, s * 10 + 2, `line ${s}\n`.repeat(200)));

  it('[replay-invalid] with a window, the requests over it are invalid and priced as nothing sent; the ones before are priced as without a window', () => {
    const open = replayFullHistoryBaseline(long, { provider: 'anthropic', tokenizer: quarter });
    expect(open.totals.invalidRequests).toBe(0);
    const window = open.steps[3]!.promptTokens;
    const shut = replayFullHistoryBaseline(long, { provider: 'anthropic', tokenizer: quarter, window });
    expect(shut.steps.map((s) => s.invalid ?? 'ok')).toEqual(['ok', 'ok', 'ok', 'ok', 'over_window', 'over_window']);
    expect(shut.steps.slice(0, 4)).toEqual(open.steps.slice(0, 4));
    for (const s of shut.steps.slice(4)) expect([s.promptTokens, s.input, s.cacheRead, s.cacheWrite, s.output, s.promptBytes]).toEqual([0, 0, 0, 0, 0, 0]);
    expect(shut.totals.invalidRequests).toBe(2);
    expect(shut.totals.invalidReasons).toEqual({ empty_request: 0, orphaned_result: 0, unanswered_call: 0, over_window: 2 });
    expect(shut.totals.promptTokens).toBe(open.steps.slice(0, 4).reduce((n, s) => n + s.promptTokens, 0));
  });
});
