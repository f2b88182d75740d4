/**
 * What a recorded agent's requests held, agent by agent, as a trace is walked (pure): its fixed
 * prefix (the recorded system prompt blocks and tool schemas, else the leading system/developer
 * instructions) and its history as provider messages. Two ways to keep the history:
 * - `full_history`: every message so far, a compaction summary appended as a user message (what
 *   the agent would have sent had it never compacted);
 * - `as_recorded`: the agent as it ran, following its own compactions: at a compaction the history
 *   becomes what the client recorded it continued with (Codex `replacement_history`), else the
 *   summary followed by the messages the client kept verbatim (Claude Code `preservedMessages`),
 *   else the summary alone.
 * Client-injected context (attachments, environment context) is history as sent, with its role.
 *
 * Tool pairs as the clients send them (`[replay-invalid]`): every recorded request was accepted, so
 * it answered every call in order. A user-role message recorded while the last assistant message's
 * calls still wait for results (Codex writes its `Approved command prefix saved` note between a call
 * and its output) is sent after those results; a call the recording never answers before the
 * agent's next call gets a stand-in error result ({@link NO_RESULT_RECORDED}; Codex itself sends
 * `aborted` for such a call), and a result recorded after that takes the
 * stand-in's place for the later requests (the client had it by then). Both are counted
 * (`ReplayRepairs.standInResults`, `lateResults`).
 */
import type { AssistantMessage, HistoryMessage, Message } from '../../conversation/Message';
import type { CompactionEvent, ContextEvent, PrefixEvent, TraceEvent } from '../TraceEvent';
import type { RecordedCall } from './traceItems';
import type { TraceStep } from '../traceSteps';
import type { AgentKey, TraceVisitor } from './walkTrace';

export type TranscriptMode = 'full_history' | 'as_recorded';

/** A message before it is given an id. */
export type UnsentMessage = HistoryMessage extends infer M ? (M extends HistoryMessage ? Omit<M, 'id'> : never) : never;

/** One message of a transcript, with where it was recorded (to follow a compaction's kept lines). */
export interface TranscriptMessage {
  message: HistoryMessage;
  file: string;
  lines: readonly number[];
  /**
   * Tokens the message carries that its text does not show: a recorded response's reasoning
   * (thinking blocks, whose text the client did not keep), sent back with it (`hiddenTokens`).
   */
  hidden?: number;
}

/** The text a message is cached and measured as (role line, content, calls), as `priceWithCacheModel` segments it. */
export function messageText(m: Message): string {
  if (m.role === 'assistant') return `assistant\n${m.content}${m.toolCalls.map((c) => `\n${c.id} ${c.name} ${c.arguments}`).join('')}`;
  if (m.role === 'tool') return `tool ${m.toolCallId}${m.isError ? ' error' : ''}\n${m.content}`;
  return `${m.role}\n${m.content}`;
}

/** Content of the stand-in result of a call the trace never answered. */
export const NO_RESULT_RECORDED = 'no result recorded';

/** What a cleared tool result is replaced by (as clients and Anthropic's context editing do). */
export const CLEARED_RESULT = '[Old tool result content cleared]';

/** One agent's transcript so far. */
export class AgentTranscript {
  /** The recorded prefix (`PrefixEvent`), when the trace holds one. */
  recorded: { system: string[]; tools: string[] } | undefined;
  /** System/developer instructions recorded before any history: the prefix when none is recorded. */
  readonly instructions: string[] = [];
  readonly history: TranscriptMessage[] = [];
  private ids = 0;

  constructor(readonly agent: AgentKey) {}

  /** Leading instructions a compaction's recorded history restates: sent there, not in the prefix. */
  readonly restated = new Set<string>();

  /** The prefix texts in the order a provider reads them: tool schemas, then system blocks. */
  prefixTexts(): { tools: string[]; system: string[] } {
    if (this.recorded) return { tools: this.recorded.tools, system: this.recorded.system };
    return { tools: [], system: this.restated.size === 0 ? this.instructions : this.instructions.filter((i) => !this.restated.has(i)) };
  }

  /** The last assistant message's calls still waiting for a result, with where that message was recorded. */
  private open = new Map<string, { file: string; lines: readonly number[] }>();
  /** The stand-in result of each call that got one: a result recorded for it later takes its place. */
  private readonly stoodIn = new Map<string, TranscriptMessage>();
  /** User-role messages recorded while calls were open: sent after their results. */
  private held: TranscriptMessage[] = [];
  /** Calls given a stand-in result, and results recorded after it, which took its place (see the module comment). */
  standInResults = 0;
  lateResults = 0;

  push(message: UnsentMessage, file: string, lines: readonly number[], hidden?: number): void {
    const entry: TranscriptMessage = { message: { ...message, id: `m${this.ids++}` } as HistoryMessage, file, lines, ...(hidden ? { hidden } : {}) };
    if (message.role === 'tool') {
      const standIn = this.open.delete(message.toolCallId) ? undefined : this.stoodIn.get(message.toolCallId);
      if (standIn) {
        standIn.message = { ...message, id: standIn.message.id };
        this.stoodIn.delete(message.toolCallId);
        this.lateResults++;
        return;
      }
      this.history.push(entry);
      if (this.open.size === 0) this.flushHeld();
      return;
    }
    if (message.role === 'user' && this.open.size > 0) {
      this.held.push(entry);
      return;
    }
    if (message.role === 'assistant') this.settle();
    this.history.push(entry);
    if (message.role === 'assistant') this.open = new Map(message.toolCalls.map((c) => [c.id, { file, lines }]));
  }

  /**
   * Before a request is sent (or the history is compacted): the open calls get their stand-in
   * results and the held messages follow them, so the history answers every call in order.
   */
  settle(): void {
    for (const [callId, at] of this.open) {
      const standIn: TranscriptMessage = { message: { id: `m${this.ids++}`, role: 'tool', toolCallId: callId, content: NO_RESULT_RECORDED, isError: true }, file: at.file, lines: at.lines };
      this.stoodIn.set(callId, standIn);
      this.standInResults++;
      this.history.push(standIn);
    }
    this.open = new Map();
    this.flushHeld();
  }

  private flushHeld(): void {
    this.history.push(...this.held);
    this.held = [];
  }

  /** Compactions this agent went through (recorded ones, followed or not). */
  compactions = 0;
  /** The history just before the last compaction replaced it: what the compaction call itself sent. */
  preCompaction: TranscriptMessage[] | undefined;

  /** Replaces the history (a compaction followed as recorded, after `settle`). */
  replace(messages: readonly TranscriptMessage[]): void {
    this.history.splice(0, this.history.length, ...messages);
  }

  /**
   * Clears the oldest tool results (their content becomes {@link CLEARED_RESULT}, the call stays)
   * until `tokens()` is at most `target` or none is left to clear; returns how many were cleared.
   */
  clearOldestResults(target: number, tokens: () => number): number {
    let cleared = 0;
    for (const h of this.history) {
      if (tokens() <= target) break;
      if (h.message.role !== 'tool' || h.message.content === CLEARED_RESULT) continue;
      h.message = { ...h.message, content: CLEARED_RESULT };
      cleared++;
    }
    return cleared;
  }

  messages(): HistoryMessage[] {
    return this.history.map((h) => h.message);
  }
}

/** The recorded action of `s` as one assistant message (its text and calls), or undefined when it has neither. */
function stepMessage(s: TraceStep): Omit<AssistantMessage, 'id'> | undefined {
  const m = { role: 'assistant' as const, content: s.texts.join('\n\n'), toolCalls: s.calls.map((c) => ({ id: c.callId, name: c.name, arguments: c.arguments })) };
  return m.content !== '' || m.toolCalls.length > 0 ? m : undefined;
}

/**
 * The reasoning tokens a recorded response carries beyond its visible text and calls: its billed
 * output minus what `count` makes of the text and calls, never below 0. Anthropic models send
 * their thinking blocks back with the response (required within a tool-use turn; kept from earlier
 * turns by current models) and bill them as input, but Claude Code keeps only their signature, so
 * the transcript under-counts every later request by these tokens.
 */
export function hiddenTokens(s: TraceStep, count: (text: string) => number): number {
  if (!s.usage) return 0;
  const visible = count([...s.texts, ...s.calls.map((c) => `${c.name} ${c.arguments}`)].join('\n'));
  return Math.max(0, s.usage.output - visible);
}

/**
 * Whether the recorded requests carried each response's reasoning back as input (a property of
 * the recording, whatever provider a replay prices with): Anthropic's Claude models (thinking blocks are returned with the response and counted as input tokens when sent
 * back). OpenAI's encrypted reasoning items are not modelled: across the recorded Codex sessions
 * their re-use does not show consistently in the billed prompts.
 */
export function keepsReasoning(recordedModel: string | undefined): boolean {
  return recordedModel !== undefined && /claude/i.test(recordedModel);
}

export interface TranscriptHooks {
  /** Step `s` of `agent` is about to be sent with `t` as it is now; its action is added after. */
  step(t: AgentTranscript, s: TraceStep, index: number, at: number): void;
  /** Reasoning tokens to carry with the step's recorded response (`hiddenTokens`); none when absent. */
  hidden?(s: TraceStep): number;
}

/**
 * A walk visitor that keeps every agent's transcript in `mode` and calls `hooks.step` before each
 * step; `transcripts` is filled as agents appear.
 */
export function transcriptVisitor(events: readonly TraceEvent[], mode: TranscriptMode, hooks: TranscriptHooks, transcripts = new Map<AgentKey, AgentTranscript>()): TraceVisitor {
  const of = (agent: AgentKey) => {
    let t = transcripts.get(agent);
    if (!t) {
      t = new AgentTranscript(agent);
      transcripts.set(agent, t);
    }
    return t;
  };
  const sourceOf = (i: number) => (events[i] as TraceEvent).source;
  const compact = (t: AgentTranscript, e: CompactionEvent, i: number) => {
    const src = sourceOf(i);
    t.settle();
    t.compactions++;
    t.preCompaction = [...t.history];
    if (mode === 'full_history') {
      if (e.summary?.trim()) t.push({ role: 'user', content: e.summary }, src.file, [src.line]);
      return;
    }
    if (e.history) {
      // The recorded history replaces everything after the base instructions, restated ones included.
      for (const h of e.history) if (h.role === 'developer' || h.role === 'system') t.restated.add(h.text);
      t.replace(e.history.map((h, k) => ({ message: { id: `c${i}:${k}`, role: h.role === 'assistant' ? 'assistant' : 'user', content: h.role === 'developer' || h.role === 'system' ? `[${h.role} instructions]\n${h.text}` : h.text, ...(h.role === 'assistant' ? { toolCalls: [] } : {}) } as HistoryMessage, file: src.file, lines: [src.line] })));
      return;
    }
    const kept = new Set(e.keptLines ?? []);
    const keptMessages = t.history.filter((h) => h.file === src.file && h.lines.some((l) => kept.has(l)));
    const summary: TranscriptMessage[] = e.summary?.trim() ? [{ message: { id: `c${i}`, role: 'user', content: e.summary }, file: src.file, lines: [src.line] }] : [];
    t.replace([...summary, ...keptMessages]);
  };
  return {
    userInput: (text, i, _at, agent) => {
      const t = of(agent);
      t.preCompaction = undefined;
      t.push({ role: 'user', content: text }, sourceOf(i).file, [sourceOf(i).line]);
    },
    prefix: (e: PrefixEvent, agent) => {
      of(agent).recorded = { system: e.system, tools: e.tools };
    },
    instructions: (text, role, i, agent) => {
      const t = of(agent);
      if (t.history.length === 0) t.instructions.push(text);
      else t.push({ role: 'user', content: `[${role} instructions]\n${text}` }, sourceOf(i).file, [sourceOf(i).line]);
    },
    // System-role context travels as its own message; measured like user content (one role word apart).
    context: (e: ContextEvent, i, _at, agent) => of(agent).push({ role: 'user', content: e.text }, sourceOf(i).file, [sourceOf(i).line]),
    toolResult: (call: RecordedCall, result, _at, agent, i) => of(agent).push({ role: 'tool', toolCallId: call.callId, content: result.content, isError: result.isError }, sourceOf(i).file, [sourceOf(i).line]),
    compaction: (e, i, _at, agent) => compact(of(agent), e, i),
    step: (s, index, at, agent) => {
      const t = of(agent);
      t.settle();
      // A compaction call recorded after its compaction (Claude Code) sent the history before it.
      if (s.usage?.call === 'compaction' && t.preCompaction && mode === 'as_recorded') {
        const after = [...t.history];
        t.replace(t.preCompaction);
        hooks.step(t, s, index, at);
        t.replace(after);
        return;
      }
      hooks.step(t, s, index, at);
      const m = stepMessage(s);
      if (m) t.push(m, s.file ?? '', s.lines, hooks.hidden?.(s));
    },
  };
}

/** What the transcripts had to stand in for or leave out (`AgentTranscript.standInResults`, `lateResults`), summed. */
export function transcriptRepairs(transcripts: Iterable<AgentTranscript>): { standInResults: number; lateResults: number } {
  let standInResults = 0;
  let lateResults = 0;
  for (const t of transcripts) {
    standInResults += t.standInResults;
    lateResults += t.lateResults;
  }
  return { standInResults, lateResults };
}
