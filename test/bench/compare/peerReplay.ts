/**
 * A peer library replayed on a recorded trace exactly like Strata's full-history baseline: at each
 * recorded step of every agent the history so far goes through the peer's selection at the budget,
 * and the fixed prefix the recording sent (`fixedPrefix.ts`, the same for every row and outside
 * every row's budget) followed by what the peer would send is priced by the same provider cache
 * model and measured with the same metrics (prompt tokens, uncached, hit rate, prefix reuse,
 * needed-reference recall on content and forced re-reads, orphaned tool results). A request a
 * provider would refuse (nothing after the fixed prefix, an orphaned result, an unanswered call,
 * over the window when one is given: `requestValidity.ts`) is counted invalid and priced as nothing
 * sent, the cache model never seeing it; the peer's output is never repaired. Dev-only: the peers
 * are benchmark dependencies, never shipped.
 */
import type { Message } from '../../../engine/conversation/Message';
import { createCacheModel, type CacheProvider, type CacheTtl } from '../../../engine/providers/cacheModel';
import type { Tokenizer } from '../../../engine/tokens/Tokenizer';
import type { TraceEvent } from '../../../engine/traces/TraceEvent';
import { chooseTtl } from '../../../engine/traces/replay/cacheTtl';
import { ContentRecall } from '../../../engine/traces/replay/contentRecall';
import { fixedPrefix, prefixSegments, segmentsText } from '../../../engine/traces/replay/fixedPrefix';
import { messagesStepMetrics, messageText } from '../../../engine/traces/replay/replayTranscript';
import { DEFAULT_REPLAY_MODEL, modelSourceOf, outputTokens, recordedModel } from '../../../engine/traces/replay/replayDefaults';
import { SegmentPricer, type RequestSegment } from '../../../engine/traces/replay/replayRequest';
import { replayTotals } from '../../../engine/traces/replay/replayTotals';
import { refusedUsage, requestInvalidity } from '../../../engine/traces/replay/requestValidity';
import type { ReplayResult, StepMetrics } from '../../../engine/traces/replay/ReplayTypes';
import type { TraceStep } from '../../../engine/traces/traceSteps';
import { transcriptRepairs, transcriptVisitor, type AgentTranscript } from '../../../engine/traces/replay/transcript';
import { walkTrace, type AgentKey } from '../../../engine/traces/replay/walkTrace';
import type { PeerAdapter } from './peers/PeerAdapter';

export async function replayPeer(events: readonly TraceEvent[], peer: PeerAdapter, options: { budget: number; tokenizer: Tokenizer; provider: CacheProvider; model?: string; ttl?: CacheTtl; window?: number }): Promise<ReplayResult> {
  const { provider, tokenizer, budget } = options;
  const model = options.model ?? recordedModel(events) ?? DEFAULT_REPLAY_MODEL[provider];
  const prefix = fixedPrefix(events, tokenizer);
  const cacheTtl = chooseTtl(events, options.ttl);
  const pricer = new SegmentPricer(createCacheModel({ provider }), (t) => Math.round(tokenizer.count(t) * prefix.tokenScale.value), cacheTtl.ttl);
  // walkTrace is synchronous and the peers are async: collect the steps with the history as it was, then select.
  const snapshots: { head: RequestSegment[]; messages: Message[]; s: TraceStep; index: number; at: number; agent: AgentKey }[] = [];
  const transcripts = new Map<AgentKey, AgentTranscript>();
  const walked = walkTrace(
    events,
    transcriptVisitor(
      events,
      'full_history',
      {
        step: (t, s, index, at) => snapshots.push({ head: prefixSegments(t, prefix.standIns.get(t.agent)), messages: t.messages(), s, index, at, agent: t.agent }),
      },
      transcripts,
    ),
  );
  const repairs = { ...walked, ...transcriptRepairs(transcripts.values()) };
  const steps: StepMetrics[] = [];
  const previous = new Map<AgentKey, string>();
  const recall = new ContentRecall(events);
  for (const { head, messages, s, index, at, agent } of snapshots) {
    const selected = await peer.select(messages, budget, tokenizer);
    const texts = selected.map((m) => (m.role === 'system' ? m.content : messageText(m)));
    const segments: RequestSegment[] = [...head, ...texts.map((text, i) => ({ text, breakpoint: i === texts.length - 1 }))];
    const tokensOf = (segs: readonly RequestSegment[]) => segs.reduce((n, seg) => n + pricer.segment(seg).tokens, 0);
    const invalid = requestInvalidity({ messages: selected, tokens: tokensOf(segments) }, options.window);
    const usage = invalid ? refusedUsage() : pricer.price(segments, { at, model, cacheKey: `replay:${peer.name}:${agent ?? 'main'}`, outputTokens: outputTokens(s, tokenizer) });
    const text = segmentsText(head) + texts.join('');
    // The budget is the peer's; the fixed prefix is sent on top of it, as for every row.
    const m = messagesStepMetrics({ index, step: s, at, usage, text, previousText: previous.get(agent), messages: selected, prefixTokens: tokensOf(head), budget, recall: recall.at(index, agent, text), ...(invalid ? { invalid } : {}) });
    // A refused request never reached the cache: the next one is measured against the last accepted.
    if (!invalid) previous.set(agent, text);
    steps.push(m);
  }
  return { strategy: peer.name as ReplayResult['strategy'], budget, provider, model, modelSource: modelSourceOf(events, options.model), cacheTtl, steps, totals: replayTotals(steps, model), repairs, prefix: prefix.summary };
}
