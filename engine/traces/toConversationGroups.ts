/**
 * Trace events -> the groups a ContextManager appends: one user message alone, or one assistant
 * message (its text and ALL its tool calls) followed by exactly one result per call, in call order.
 * Real traces break that shape (lost lines, a truncated end, converters that drop a call), so the
 * conversion repairs them and counts every repair. Pure.
 *
 * Rules:
 * - Assistant text and tool calls merge into one assistant message while they belong to a `step`
 *   (LLM call) already in it, even with that call's results recorded between its blocks, or while
 *   no user input or tool result came between them (whatever their steps).
 * - Results attach to the open assistant message. A result for an earlier message's call is an
 *   orphan (dropped, counted in `droppedOrphans`); a second result for a call, or a call whose id
 *   was already used, is dropped and counted in `droppedDuplicates`. A result whose call has not
 *   appeared yet waits for it (Claude Code sometimes writes a result line before its call line) and
 *   is attached when the call comes (counted in `reorderedResults`), or is an orphan if it never does.
 * - A call still unanswered when its message closes gets a synthesized error result
 *   (`no result recorded`), counted in `synthesizedResults`.
 * - User input with blank text is skipped, and an assistant message with neither text nor calls is
 *   dropped (both counted in `droppedEmpty`).
 * - The history must start with a user message: assistant groups before the first user input are
 *   DROPPED (counted in `droppedLeading`), never invented. Nothing is made up to precede them, so
 *   every kept message is one the trace recorded (or a synthesized result, which is counted).
 * - Subagent events (any event with `agentId`, and the spawn/return markers) stay out of the main
 *   thread (counted in `subagentEvents`); the subagent's effect reaches the main thread through the
 *   result of the call that spawned it.
 * - Instructions, usage and compaction events are not history and are ignored: the ContextManager
 *   owns the system prompt and does its own truncation and compression.
 */
import type { AssistantMessage, ToolCall, ToolResultMessage } from '../conversation/Message';
import type { GroupInput } from '../conversation/readGroup';
import type { TraceEvent } from './TraceEvent';

/** What the conversion had to repair, by kind. */
export interface ConversationRepairs {
  synthesizedResults: number;
  droppedOrphans: number;
  droppedDuplicates: number;
  droppedLeading: number;
  subagentEvents: number;
  droppedEmpty: number;
  /** Results recorded before their call (Claude Code writes some lines out of order) and attached once the call came. */
  reorderedResults: number;
}

export interface ConversationGroups {
  groups: GroupInput[];
  repairs: ConversationRepairs;
}

/** Content of the result synthesized for a call the trace never answered. */
export const NO_RESULT_RECORDED = 'no result recorded';

type AssistantInput = Omit<AssistantMessage, 'id'>;
type ResultInput = Omit<ToolResultMessage, 'id'>;

interface Open {
  text: string[];
  calls: ToolCall[];
  results: Map<string, ResultInput>;
  /** The LLM calls (steps) the message holds output of. */
  steps: Set<number>;
  /** A tool result (attached or not) came after the last assistant event. */
  resultSince: boolean;
}

/** The main thread of `events` as appendable groups, with every repair counted (rules in the module comment). Pure: `events` is not changed. */
export function toConversationGroups(events: readonly TraceEvent[]): ConversationGroups {
  const repairs: ConversationRepairs = { synthesizedResults: 0, droppedOrphans: 0, droppedDuplicates: 0, droppedLeading: 0, subagentEvents: 0, droppedEmpty: 0, reorderedResults: 0 };
  const groups: GroupInput[] = [];
  const usedCallIds = new Set<string>();
  const answered = new Set<string>();
  /** Results whose call has not been seen yet, waiting for it. */
  const early = new Map<string, ResultInput>();
  let open: Open | undefined;
  let started = false;

  const close = () => {
    if (!open) return;
    const o = open;
    open = undefined;
    const content = o.text.join('\n\n');
    if (o.calls.length === 0 && content.trim() === '') {
      repairs.droppedEmpty++;
      return;
    }
    const results = o.calls.map((c): ResultInput => {
      const r = o.results.get(c.id);
      if (r) return r;
      repairs.synthesizedResults++;
      return { role: 'tool', toolCallId: c.id, content: NO_RESULT_RECORDED, isError: true };
    });
    if (!started) {
      repairs.droppedLeading++;
      return;
    }
    const assistant: AssistantInput = { role: 'assistant', content, toolCalls: o.calls };
    groups.push([assistant, ...results]);
  };

  const joinable = (step: number | undefined): Open | undefined => {
    if (!open) return undefined;
    if (step !== undefined && open.steps.has(step)) return open;
    return open.resultSince ? undefined : open;
  };

  const assistantOpen = (step: number | undefined): Open => {
    let o = joinable(step);
    if (!o) {
      close();
      o = { text: [], calls: [], results: new Map(), steps: new Set(), resultSince: false };
      open = o;
    }
    if (step !== undefined) o.steps.add(step);
    o.resultSince = false;
    return o;
  };

  for (const e of events) {
    if (e.agentId !== undefined || e.type === 'subagent_spawn' || e.type === 'subagent_return') {
      repairs.subagentEvents++;
      continue;
    }
    switch (e.type) {
      case 'user_input':
        if (e.text.trim() === '') {
          repairs.droppedEmpty++;
          break;
        }
        close();
        groups.push([{ role: 'user', content: e.text }]);
        started = true;
        break;
      case 'assistant_text':
        assistantOpen(e.step).text.push(e.text);
        break;
      case 'tool_call': {
        if (usedCallIds.has(e.callId)) {
          repairs.droppedDuplicates++;
          break;
        }
        usedCallIds.add(e.callId);
        const o = assistantOpen(e.step);
        o.calls.push({ id: e.callId, name: e.name, arguments: e.arguments });
        const waiting = early.get(e.callId);
        if (waiting) {
          early.delete(e.callId);
          o.results.set(e.callId, waiting);
          answered.add(e.callId);
          repairs.reorderedResults++;
        }
        break;
      }
      case 'tool_result': {
        const o = open;
        if (o) o.resultSince = true;
        if (o && o.calls.some((c) => c.id === e.callId)) {
          if (o.results.has(e.callId)) repairs.droppedDuplicates++;
          else {
            o.results.set(e.callId, { role: 'tool', toolCallId: e.callId, content: e.content, isError: e.isError });
            answered.add(e.callId);
          }
        } else if (answered.has(e.callId) || early.has(e.callId)) repairs.droppedDuplicates++;
        else if (!usedCallIds.has(e.callId)) early.set(e.callId, { role: 'tool', toolCallId: e.callId, content: e.content, isError: e.isError });
        else repairs.droppedOrphans++;
        break;
      }
      case 'instructions':
      case 'usage':
      case 'compaction':
        break;
    }
  }
  close();
  repairs.droppedOrphans += early.size;
  return { groups, repairs };
}
