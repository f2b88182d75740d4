/**
 * The plain full-history baseline (`[replay-baseline]`): at each recorded step, everything the
 * main agent had seen so far as provider messages, with no truncation, priced by the same cache
 * model as the engine replay. The recorded instructions come first as system blocks (breakpoint on
 * the last, as the recording agents send them), then the history in recorded order (user input,
 * one assistant message per step with its text and calls, the calls' results, compaction
 * summaries as user messages) with a breakpoint on the last message. It is what the recording
 * agent would have sent without compaction, so it is the reference for the recorded usage. Pure.
 */
import type { AssistantMessage, HistoryMessage, Message } from '../../conversation/Message';
import { reuseRatio } from '../../metrics/prefixReuse';
import { createCacheModel, type CacheTtl } from '../../providers/cacheModel';
import { commonPrefixBytes, utf8Length } from '../../text/utf8';
import type { TraceEvent } from '../TraceEvent';
import { actionReferences, heldReferences } from './actionReferences';
import { chooseTtl } from './cacheTtl';
import { SegmentPricer, type RequestSegment } from './replayRequest';
import { replayTotals } from './replayTotals';
import { reuseBreak, type LayerEnds } from './reuseBreak';
import { DEFAULT_REPLAY_MODEL, modelSourceOf, outputTokens, recordedModel } from './replayDefaults';
import type { BaselineOptions, ReplayResult, StepMetrics } from './ReplayTypes';
import { walkTrace } from './walkTrace';
import type { TraceStep } from './traceSteps';

/** The text a message is cached and measured as (role line, content, calls), as `priceWithCacheModel` segments it. */
export function messageText(m: Message): string {
  if (m.role === 'assistant') return `assistant\n${m.content}${m.toolCalls.map((c) => `\n${c.id} ${c.name} ${c.arguments}`).join('')}`;
  if (m.role === 'tool') return `tool ${m.toolCallId}${m.isError ? ' error' : ''}\n${m.content}`;
  return `${m.role}\n${m.content}`;
}

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
 * The metrics of one step whose request is a list of provider messages (the baseline, a peer's
 * selection): prompt and reuse from the request text, usage as priced, recall against the text,
 * tool results and orphans counted in the messages themselves. Engine-specific fields are neutral.
 */
export function messagesStepMetrics(i: {
  index: number;
  step: TraceStep;
  at: number;
  usage: { promptTokens: number; input: number; cacheRead: number; cacheWrite: number; cacheWriteByTtl: Record<CacheTtl, number>; output: number };
  text: string;
  previousText: string | undefined;
  messages: readonly Message[];
  budget?: number;
}): StepMetrics {
  const promptBytes = utf8Length(i.text);
  const reusedBytes = i.previousText === undefined ? 0 : commonPrefixBytes(i.previousText, i.text);
  const refs = actionReferences(i.step.texts, i.step.calls);
  const held = heldReferences(i.text, refs);
  const m: StepMetrics = {
    index: i.index,
    step: i.step.step,
    at: i.at,
    promptTokens: i.usage.promptTokens,
    promptBytes,
    reusedBytes,
    prefixReuse: reuseRatio(reusedBytes, promptBytes),
    input: i.usage.input,
    cacheRead: i.usage.cacheRead,
    cacheWrite: i.usage.cacheWrite,
    cacheWrite1h: i.usage.cacheWriteByTtl['1h'],
    output: i.usage.output,
    references: refs.length,
    referencesHeld: held,
    toolResults: i.messages.filter((x) => x.role === 'tool').length,
    orphanedToolResults: orphanedResults(i.messages),
    generation: 1,
    refreshes: 0,
    limitRefreshes: 0,
    overBudget: i.budget !== undefined && i.usage.promptTokens > i.budget,
    recordedOverWindow: false,
    overheadMs: 0,
    tokenizeMs: 0,
  };
  if (refs.length > 0) m.neededReferenceRecall = held / refs.length;
  return m;
}

export function replayFullHistoryBaseline(events: readonly TraceEvent[], options: BaselineOptions): ReplayResult {
  const { provider, tokenizer } = options;
  const model = options.model ?? recordedModel(events) ?? DEFAULT_REPLAY_MODEL[provider];
  const cacheTtl = chooseTtl(events, options.ttl);
  const pricer = new SegmentPricer(createCacheModel({ provider }), (t) => tokenizer.count(t), cacheTtl.ttl);
  const system: string[] = [];
  const history: HistoryMessage[] = [];
  const historyTexts: string[] = [];
  let systemOpen = options.instructions !== false;
  let text = '';
  let previousText: string | undefined;
  let previousEnds: LayerEnds | undefined;
  let systemBytes = 0;
  let ids = 0;
  const steps: StepMetrics[] = [];

  const push = (m: HistoryMessage) => {
    systemOpen = false;
    const t = messageText(m);
    history.push(m);
    historyTexts.push(t);
    text += t;
  };

  const repairs = walkTrace(events, {
    instructions: (t, role) => {
      if (options.instructions === false) return;
      if (systemOpen) {
        system.push(t);
        text += t;
        systemBytes += utf8Length(t);
      } else push({ id: `m${ids++}`, role: 'user', content: `[${role} instructions]\n${t}` });
    },
    userInput: (t) => push({ id: `m${ids++}`, role: 'user', content: t }),
    toolResult: (call, result) => push({ id: `m${ids++}`, role: 'tool', toolCallId: call.callId, content: result.content, isError: result.isError }),
    compaction: (summary) => push({ id: `m${ids++}`, role: 'user', content: summary }),
    step: (s, index, at) => {
      const segments: RequestSegment[] = [
        ...system.map((t, i) => ({ text: t, breakpoint: i === system.length - 1 })),
        ...historyTexts.map((t, i) => ({ text: t, breakpoint: i === historyTexts.length - 1 })),
      ];
      if (segments.length === 0) segments.push({ text: '', breakpoint: false });
      const usage = pricer.price(segments, { at, model, cacheKey: 'replay:baseline', outputTokens: outputTokens(s, tokenizer) });
      const previous = previousText;
      previousText = text;
      const m = messagesStepMetrics({ index, step: s, at, usage, text, previousText: previous, messages: history });
      // The whole transcript is history: it only ever appends after the instructions.
      const ends: LayerEnds = { l0: 0, static: systemBytes, l2: m.promptBytes, total: m.promptBytes };
      const breakKind = previousEnds === undefined ? undefined : reuseBreak(m.reusedBytes, previousEnds, ends);
      previousEnds = ends;
      if (breakKind !== undefined) m.reuseBreak = breakKind;
      steps.push(m);
      // The recorded action: one assistant message with the step's text and calls.
      const assistant: AssistantMessage = { id: `m${ids++}`, role: 'assistant', content: s.texts.join('\n\n'), toolCalls: s.calls.map((c) => ({ id: c.callId, name: c.name, arguments: c.arguments })) };
      if (assistant.content !== '' || assistant.toolCalls.length > 0) push(assistant);
    },
  });
  return { strategy: 'full_history_baseline', budget: null, provider, model, modelSource: modelSourceOf(events, options.model), cacheTtl, steps, totals: replayTotals(steps, model), repairs };
}
