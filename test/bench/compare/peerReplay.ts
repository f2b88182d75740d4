/**
 * A peer library replayed on a recorded trace exactly like Strata's full-history baseline: at each
 * recorded step the conversation so far (the recorded instructions as the system prompt, then the
 * history) goes through the peer's selection at the budget, and what the peer would send is priced
 * by the same provider cache model and measured with the same metrics (prompt tokens, uncached,
 * hit rate, prefix reuse, needed-reference recall, orphaned tool results). Dev-only: the peers are
 * benchmark dependencies, never shipped.
 */
import type { AssistantMessage, HistoryMessage, Message } from '../../../engine/conversation/Message';
import { createCacheModel, type CacheProvider, type CacheTtl } from '../../../engine/providers/cacheModel';
import type { Tokenizer } from '../../../engine/tokens/Tokenizer';
import type { TraceEvent } from '../../../engine/traces/TraceEvent';
import { messagesStepMetrics, messageText } from '../../../engine/traces/replay/replayFullHistoryBaseline';
import { DEFAULT_REPLAY_MODEL, modelSourceOf, outputTokens, recordedModel } from '../../../engine/traces/replay/replayDefaults';
import { chooseTtl } from '../../../engine/traces/replay/cacheTtl';
import { SegmentPricer } from '../../../engine/traces/replay/replayRequest';
import { replayTotals } from '../../../engine/traces/replay/replayTotals';
import type { ReplayResult, StepMetrics } from '../../../engine/traces/replay/ReplayTypes';
import type { TraceStep } from '../../../engine/traces/replay/traceSteps';
import { walkTrace } from '../../../engine/traces/replay/walkTrace';
import type { PeerAdapter } from './peers/PeerAdapter';

export async function replayPeer(events: readonly TraceEvent[], peer: PeerAdapter, options: { budget: number; tokenizer: Tokenizer; provider: CacheProvider; model?: string; ttl?: CacheTtl }): Promise<ReplayResult> {
  const { provider, tokenizer, budget } = options;
  const model = options.model ?? recordedModel(events) ?? DEFAULT_REPLAY_MODEL[provider];
  const cacheTtl = chooseTtl(events, options.ttl);
  const pricer = new SegmentPricer(createCacheModel({ provider }), (t) => tokenizer.count(t), cacheTtl.ttl);
  const system: string[] = [];
  const history: HistoryMessage[] = [];
  let systemOpen = true;
  let ids = 0;
  let previousText: string | undefined;
  const push = (m: HistoryMessage) => {
    systemOpen = false;
    history.push(m);
  };
  // walkTrace is synchronous and the peers are async: collect the steps with the history as it was, then select.
  const snapshots: { messages: Message[]; s: TraceStep; index: number; at: number }[] = [];
  const repairs = walkTrace(events, {
    instructions: (t, role) => {
      if (systemOpen) system.push(t);
      else push({ id: `m${ids++}`, role: 'user', content: `[${role} instructions]\n${t}` });
    },
    userInput: (t) => push({ id: `m${ids++}`, role: 'user', content: t }),
    toolResult: (call, result) => push({ id: `m${ids++}`, role: 'tool', toolCallId: call.callId, content: result.content, isError: result.isError }),
    compaction: (summary) => push({ id: `m${ids++}`, role: 'user', content: summary }),
    step: (s, index, at) => {
      const messages: Message[] = [...(system.length ? [{ id: 'system', role: 'system' as const, kind: 'canonical' as const, content: system.join('\n\n') }] : []), ...history];
      snapshots.push({ messages, s, index, at });
      const assistant: AssistantMessage = { id: `m${ids++}`, role: 'assistant', content: s.texts.join('\n\n'), toolCalls: s.calls.map((c) => ({ id: c.callId, name: c.name, arguments: c.arguments })) };
      if (assistant.content !== '' || assistant.toolCalls.length > 0) push(assistant);
    },
  });
  const steps: StepMetrics[] = [];
  for (const { messages, s, index, at } of snapshots) {
    const selected = await peer.select(messages, budget, tokenizer);
    const texts = selected.map((m) => (m.role === 'system' ? m.content : messageText(m)));
    const segments = texts.map((text, i) => ({ text, breakpoint: i === texts.length - 1 }));
    if (segments.length === 0) segments.push({ text: '', breakpoint: false });
    const usage = pricer.price(segments, { at, model, cacheKey: `replay:${peer.name}`, outputTokens: outputTokens(s, tokenizer) });
    const text = texts.join('');
    const previous = previousText;
    previousText = text;
    const m = messagesStepMetrics({ index, step: s, at, usage, text, previousText: previous, messages: selected, budget });
    steps.push(m);
  }
  return { strategy: peer.name as ReplayResult['strategy'], budget, provider, model, modelSource: modelSourceOf(events, options.model), cacheTtl, steps, totals: replayTotals(steps, model), repairs };
}
