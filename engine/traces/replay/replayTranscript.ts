/**
 * The two transcript baselines (`[replay-baseline]`, `[replay-as-recorded]`), priced by the same
 * cache model as the engine replay, every agent of the trace (main and subagents) replayed:
 * - `replayFullHistoryBaseline`: at each recorded step, everything the agent had seen so far as
 *   provider messages, with no truncation (a compaction summary appended): what the agent would
 *   have sent had it never compacted.
 * - `replayAsRecorded`: the agent as it actually ran, following its own compactions
 *   (`transcript.ts`): the reference for the recorded usage.
 * Each request is the fixed prefix (`fixedPrefix.ts`: recorded system prompt and tools, or a
 * calibrated stand-in, marked estimated) with a breakpoint, then the history in recorded order
 * (user input, client-injected context, one assistant message per step with its text and calls,
 * the calls' results) with a breakpoint on the last message. A request a provider would refuse
 * (`requestValidity.ts`) is counted invalid and never priced (`[replay-invalid]`). Pure.
 */
import type { Message } from '../../conversation/Message';
import { reuseRatio } from '../../metrics/prefixReuse';
import { createCacheModel, type CacheTtl } from '../../providers/cacheModel';
import { commonPrefixBytes, utf8Length } from '../../text/utf8';
import type { TraceEvent } from '../TraceEvent';
import { chooseTtl } from './cacheTtl';
import { ContentRecall, type StepRecall } from './contentRecall';
import { CLEARING_DROP } from './clearing';
import { fixedPrefix, prefixSegments, segmentsText } from './fixedPrefix';
import { SegmentPricer, type RequestSegment } from './replayRequest';
import { replayTotals } from './replayTotals';
import type { InvalidReason } from './ReplayTypes';
import { refusedStep, refusedUsage, requestInvalidity } from './requestValidity';
import { reuseBreak, type LayerEnds } from './reuseBreak';
import { DEFAULT_REPLAY_MODEL, modelSourceOf, outputTokens, recordedModel } from './replayDefaults';
import type { BaselineOptions, ReplayResult, StepMetrics } from './ReplayTypes';
import { hiddenTokens, keepsReasoning, messageText, transcriptRepairs, transcriptVisitor, type AgentTranscript, type TranscriptMessage, type TranscriptMode } from './transcript';
import { recordedPrompt, type TraceStep } from '../traceSteps';
import { walkTrace, type AgentKey } from './walkTrace';

export { messageText } from './transcript';

/** Tool results in `messages` whose call is in no earlier assistant message of the same list. */
export function orphanedResults(messages: readonly Message[]): number {
  const calls = new Set<string>();
  let orphans = 0;
  for (const m of messages) {
    if (m.role === 'assistant') for (const c of m.toolCalls) calls.add(c.id);
    else if (m.role === 'tool' && !calls.has(m.toolCallId)) orphans++;
  }
  return orphans;
}

/**
 * The metrics of one step whose request is a list of provider messages (a baseline, a peer's
 * selection): prompt and reuse from the request text, usage as priced, recall as the caller's
 * `ContentRecall` found it on the text, tool results and orphans counted in the messages themselves. Engine-specific fields are neutral.
 */
export function messagesStepMetrics(i: {
  index: number;
  step: TraceStep;
  at: number;
  usage: { promptTokens: number; input: number; cacheRead: number; cacheWrite: number; cacheWriteByTtl: Record<CacheTtl, number>; output: number };
  text: string;
  previousText: string | undefined;
  messages: readonly Message[];
  /** Tokens of the fixed prefix in the request (outside the budget). */
  prefixTokens: number;
  budget?: number;
  /** Why a provider would refuse the request (`requestInvalidity`): the step is then `refusedStep`'s, and `usage` is `refusedUsage()`. */
  invalid?: InvalidReason;
  /** What the recorded action needs and the request holds (`ContentRecall.at` on `text`). */
  recall: StepRecall;
}): StepMetrics {
  const promptBytes = utf8Length(i.text);
  const reusedBytes = i.previousText === undefined ? 0 : commonPrefixBytes(i.previousText, i.text);
  const m: StepMetrics = {
    index: i.index,
    step: i.step.step,
    ...(i.step.agentId !== undefined ? { agentId: i.step.agentId } : {}),
    ...(i.step.usage?.call ? { call: i.step.usage.call } : {}),
    at: i.at,
    promptTokens: i.usage.promptTokens,
    prefixTokens: i.prefixTokens,
    promptBytes,
    reusedBytes,
    prefixReuse: reuseRatio(reusedBytes, promptBytes),
    input: i.usage.input,
    cacheRead: i.usage.cacheRead,
    cacheWrite: i.usage.cacheWrite,
    cacheWrite1h: i.usage.cacheWriteByTtl['1h'],
    output: i.usage.output,
    ...i.recall,
    toolResults: i.messages.filter((x) => x.role === 'tool').length,
    orphanedToolResults: orphanedResults(i.messages),
    generation: 1,
    refreshes: 0,
    limitRefreshes: 0,
    overBudget: i.budget !== undefined && i.usage.promptTokens - i.prefixTokens > i.budget,
    recordedOverWindow: false,
    overheadMs: 0,
    tokenizeMs: 0,
  };
  if (i.recall.references > 0) m.neededReferenceRecall = i.recall.referencesHeld / i.recall.references;
  return i.invalid ? refusedStep(m, i.invalid) : m;
}

/** A transcript's history as request segments (a breakpoint on the last), hidden reasoning tokens included. */
function historySegments(history: readonly TranscriptMessage[], texts: readonly string[]): RequestSegment[] {
  return history.map((h, i) => ({ text: texts[i] as string, breakpoint: i === history.length - 1, ...(h.hidden ? { extra: h.hidden } : {}) }));
}

function replayTranscript(events: readonly TraceEvent[], options: BaselineOptions, mode: TranscriptMode): ReplayResult {
  const { provider, tokenizer } = options;
  const model = options.model ?? recordedModel(events) ?? DEFAULT_REPLAY_MODEL[provider];
  const prefix = fixedPrefix(events, tokenizer);
  const scale = prefix.tokenScale.value;
  const cacheTtl = chooseTtl(events, options.ttl);
  const pricer = new SegmentPricer(createCacheModel({ provider }), (t) => Math.round(tokenizer.count(t) * scale), cacheTtl.ttl);
  const withPrefix = options.instructions !== false;
  const previous = new Map<AgentKey, { text: string; ends: LayerEnds }>();
  const billedBefore = new Map<AgentKey, { billed: number; modelled: number; compactions: number }>();
  const steps: StepMetrics[] = [];
  const recall = new ContentRecall(events);
  const count = (segments: readonly RequestSegment[]) => segments.reduce((n, seg) => n + pricer.segment(seg).tokens, 0);
  const strategy = mode === 'as_recorded' ? 'as_recorded' : 'full_history_baseline';

  const transcripts = new Map<AgentKey, AgentTranscript>();
  const walked = walkTrace(
    events,
    transcriptVisitor(events, mode, {
      ...(keepsReasoning(recordedModel(events)) ? { hidden: (s: TraceStep) => hiddenTokens(s, (x) => tokenizer.count(x)) } : {}),
      step: (t, s, index, at) => {
        // The agent's compaction call as it ran: its history, the client's instruction, its tools or none (`compactionRequest.ts`).
        const compaction = mode === 'as_recorded' && s.usage?.call === 'compaction' ? s.usage.compactionRequest : undefined;
        const sendsTools = compaction?.toolsSent !== false;
        const head = withPrefix ? prefixSegments(t, sendsTools ? prefix.standIns.get(t.agent) : undefined, { tools: sendsTools }) : [];
        const tail: RequestSegment[] = compaction ? [{ text: `[compaction instruction: ${compaction.instructionTokens} tokens estimated]`, tokens: compaction.instructionTokens, breakpoint: false }] : [];
        const build = () => {
          const texts = t.history.map((h) => messageText(h.message));
          return { texts, segments: [...head, ...historySegments(t.history, texts), ...tail] };
        };
        let { texts, segments } = build();
        const before = billedBefore.get(t.agent);
        const billed = s.usage ? recordedPrompt(s.usage) : undefined;
        let cleared = 0;
        if (mode === 'as_recorded' && before && billed !== undefined && before.compactions === t.compactions && billed < before.billed * CLEARING_DROP) {
          // The billed prompt fell with no compaction recorded: the client cleared context nobody recorded.
          const target = (billed * before.modelled) / before.billed;
          cleared = t.clearOldestResults(target, () => count(build().segments));
          ({ texts, segments } = build());
        }
        const messages = t.messages();
        const tokens = count(segments);
        // A request the provider would refuse is counted, never priced: the cache model never sees it (`[replay-invalid]`).
        const invalid = requestInvalidity({ messages, tokens }, options.window);
        const usage = invalid ? refusedUsage() : pricer.price(segments, { at, model, cacheKey: `replay:${strategy}:${t.agent ?? 'main'}`, outputTokens: outputTokens(s, tokenizer) });
        if (billed !== undefined) billedBefore.set(t.agent, { billed, modelled: tokens, compactions: t.compactions });
        const headText = segmentsText(head);
        const text = headText + texts.join('');
        const last = previous.get(t.agent);
        const m = messagesStepMetrics({ index, step: s, at, usage, text, previousText: last?.text, messages, prefixTokens: count(head), recall: recall.at(index, t.agent, text), ...(invalid ? { invalid } : {}) });
        if (cleared > 0) m.clearedResults = cleared;
        if (!invalid) {
          // The prefix is static; the history only appends between compactions.
          const ends: LayerEnds = { l0: 0, static: utf8Length(headText), l2: m.promptBytes, total: m.promptBytes };
          if (last) {
            const kind = reuseBreak(m.reusedBytes, last.ends, ends);
            if (kind !== undefined) m.reuseBreak = kind;
          }
          previous.set(t.agent, { text, ends });
        }
        steps.push(m);
      },
    }, transcripts),
  );
  const repairs = { ...walked, ...transcriptRepairs(transcripts.values()) };
  return { strategy, budget: null, provider, model, modelSource: modelSourceOf(events, options.model), cacheTtl, steps, totals: replayTotals(steps, model), repairs, prefix: prefix.summary };
}

/** The plain full-history baseline (see the module comment). */
export function replayFullHistoryBaseline(events: readonly TraceEvent[], options: BaselineOptions): ReplayResult {
  return replayTranscript(events, options, 'full_history');
}

/** The agent as it actually ran, following its own compactions (see the module comment). */
export function replayAsRecorded(events: readonly TraceEvent[], options: BaselineOptions): ReplayResult {
  return replayTranscript(events, options, 'as_recorded');
}
