/**
 * What every peer conversion shares: the originals a peer's output is read back against, tool-call
 * arguments in the shape peers expect (parsed JSON) and back to our exact text, and the runs of
 * tool results that the AI SDK message formats carry as one `tool` message.
 */
import { isDeepStrictEqual } from 'node:util';
import type { AssistantMessage, Message, ToolCall, ToolResultMessage } from '../../../../engine/conversation/Message';

/** The conversation a peer was given, indexed to read its output back. */
export interface Originals {
  byId: ReadonlyMap<string, Message>;
  /** Every tool call of the conversation by call id. */
  calls: ReadonlyMap<string, ToolCall>;
  /** Every tool result of the conversation by call id (for peers whose result parts carry no id of ours). */
  results: ReadonlyMap<string, ToolResultMessage>;
}

export function originalsOf(conversation: readonly Message[]): Originals {
  const byId = new Map<string, Message>();
  const calls = new Map<string, ToolCall>();
  const results = new Map<string, ToolResultMessage>();
  for (const m of conversation) {
    byId.set(m.id, m);
    if (m.role === 'assistant') for (const c of m.toolCalls) calls.set(c.id, c);
    if (m.role === 'tool' && !results.has(m.toolCallId)) results.set(m.toolCallId, m);
  }
  return { byId, calls, results };
}

/** The original message `id` names, or an error: a peer returned a message it was never given. */
export function originalOf(originals: Originals, id: string | undefined, peer: string): Message {
  const m = id === undefined ? undefined : originals.byId.get(id);
  if (!m) throw new Error(`${peer} returned a message with id ${String(id)}, which is not in the conversation it was given`);
  return m;
}

/** Name of the tool `callId` calls, for formats whose result parts need it; `unknown` for a result without its call. */
export function toolNameOf(originals: Originals, callId: string): string {
  return originals.calls.get(callId)?.name ?? 'unknown';
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function parseArguments(raw: string): Record<string, unknown> | string {
  try {
    const parsed: unknown = JSON.parse(raw);
    if (isPlainObject(parsed)) return deepFreeze(parsed);
  } catch {
    // not JSON: peers get the text as it is
  }
  return raw;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

// Every step hands a peer the whole conversation again, and parsing every call's arguments anew
// was a quadratic fifth of the peers' time. The parsed objects are shared between steps, so they
// are frozen: a peer writing to one would throw rather than change what a later step is given.
const parsedArguments = new Map<string, Record<string, unknown> | string>();
const MAX_PARSED_ARGUMENTS = 50_000;

/** Arguments as peers expect them: the parsed object (frozen) when the text is a JSON object, else the text itself. */
export function argumentsValue(raw: string): Record<string, unknown> | string {
  let v = parsedArguments.get(raw);
  if (v === undefined) {
    if (parsedArguments.size >= MAX_PARSED_ARGUMENTS) parsedArguments.clear();
    v = parseArguments(raw);
    parsedArguments.set(raw, v);
  }
  return v;
}

/** Key under which `argumentsObject` carries arguments that are not a JSON object. */
export const RAW_ARGUMENTS_KEY = '__strata_raw_arguments';

/** Arguments for formats that only take an object (LangChain `tool_calls[].args`). */
export function argumentsObject(raw: string): Record<string, unknown> {
  const v = argumentsValue(raw);
  return typeof v === 'string' ? { [RAW_ARGUMENTS_KEY]: v } : v;
}

/**
 * Our argument text for what a peer returned: the original text, byte for byte, when the peer left
 * the value as it was given; otherwise the peer's value as JSON.
 */
export function argumentsText(value: unknown, original: ToolCall | undefined): string {
  if (isPlainObject(value)) {
    const keys = Object.keys(value);
    const raw = value[RAW_ARGUMENTS_KEY];
    if (keys.length === 1 && typeof raw === 'string') return raw;
  }
  if (typeof value === 'string') return value;
  if (original !== undefined && isDeepStrictEqual(argumentsValue(original.arguments), value)) return original.arguments;
  return JSON.stringify(value) ?? '';
}

/** A message alone, or a run of consecutive tool results (one `tool` message in the AI SDK formats). */
export type Segment = { kind: 'message'; message: Exclude<Message, ToolResultMessage> } | { kind: 'results'; results: ToolResultMessage[] };

/** `conversation` cut into segments, in order. */
export function segmentsOf(conversation: readonly Message[]): Segment[] {
  const out: Segment[] = [];
  for (const m of conversation) {
    if (m.role === 'tool') {
      const last = out[out.length - 1];
      if (last?.kind === 'results') last.results.push(m);
      else out.push({ kind: 'results', results: [m] });
    } else out.push({ kind: 'message', message: m });
  }
  return out;
}

/** A copy of the original system or user-role message (with its kind-specific fields) carrying the text a peer returned. */
export function withContent(original: Message, content: string): Message {
  switch (original.role) {
    case 'system':
      return original.kind === 'summary' ? { ...original, sourceTurnIds: [...original.sourceTurnIds], content } : { ...original, content };
    case 'user':
      return { ...original, content };
    case 'assistant':
      return { ...original, content, toolCalls: original.toolCalls.map((c) => ({ ...c })) };
    case 'tool':
      return { ...original, content };
  }
}

/** An assistant message as a peer returned it: original id, the peer's text and calls. */
export function assistantFrom(original: Message, content: string, toolCalls: ToolCall[], peer: string): AssistantMessage {
  if (original.role !== 'assistant') throw new Error(`${peer} returned an assistant message for ${original.id}, which is a ${original.role} message`);
  return { id: original.id, role: 'assistant', content, toolCalls };
}
