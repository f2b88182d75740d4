import type { HistoryMessage } from './Message';

type OptionalId<M> = M extends { id: string } ? Omit<M, 'id'> & { id?: string } : never;

/** A history message as a caller hands it in: the id is optional (the manager's id port fills it). */
export type HistoryMessageInput = OptionalId<HistoryMessage>;

/** What `appendTurn` takes: one user message, or one assistant message followed by all its results. */
export type GroupInput = readonly HistoryMessageInput[];

/** The conversation a group is read against. */
export interface GroupContext {
  /** Ids of every live message (system, summary, transients, history). */
  messageIds: ReadonlySet<string>;
  /** Ids of every tool call in the live history. */
  callIds: ReadonlySet<string>;
  /** True when no group precedes this one, so it must start with a user message. */
  first: boolean;
  /** Refuse messages without an id (a snapshot must carry its ids). */
  requireIds?: boolean;
}

/** The group read: fresh copies (never the caller's objects), or every problem found. */
export type ReadGroup = { ok: true; messages: HistoryMessageInput[] } | { ok: false; problems: string[] };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isName = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

/**
 * A history message with its id and its own fields only, in one fixed key order (that of
 * `Message.ts`), so a conversation serializes to the same bytes however its messages arrived.
 */
export function withId(m: HistoryMessageInput, id: string): HistoryMessage {
  switch (m.role) {
    case 'user':
      return { id, role: 'user', content: m.content };
    case 'assistant':
      return { id, role: 'assistant', content: m.content, toolCalls: m.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })) };
    case 'tool':
      return { id, role: 'tool', toolCallId: m.toolCallId, content: m.content, isError: m.isError };
  }
}

/** A copy of one message with only its own fields, or the problems of its shape. */
function readMessage(raw: unknown, at: string, requireIds: boolean, problems: string[]): HistoryMessageInput | undefined {
  if (!isRecord(raw)) return void problems.push(`${at} is not a message object`);
  const before = problems.length;
  const id = raw['id'];
  if (id !== undefined && !isName(id)) problems.push(`${at} has an id that is not a non-empty string`);
  if (id === undefined && requireIds) problems.push(`${at} has no id`);
  if (typeof raw['content'] !== 'string') problems.push(`${at} has no string content`);
  const base = { ...(isName(id) ? { id } : {}), content: String(raw['content']) };
  switch (raw['role']) {
    case 'system':
      problems.push(`[one-system-prompt] ${at} is a system message; the canonical prompt, the summary and transients are owned by the ContextManager (use injectTransient for one-request content)`);
      return undefined;
    case 'user':
      return problems.length === before ? { ...base, role: 'user' } : undefined;
    case 'assistant': {
      const calls = raw['toolCalls'];
      if (!Array.isArray(calls)) return void problems.push(`${at} (assistant) has no toolCalls array`);
      const toolCalls = calls.flatMap((c: unknown, i) => {
        if (isRecord(c) && isName(c['id']) && isName(c['name']) && typeof c['arguments'] === 'string') return [{ id: c['id'], name: c['name'], arguments: c['arguments'] }];
        problems.push(`${at} tool call ${i} needs a non-empty id and name and string arguments`);
        return [];
      });
      return problems.length === before ? { ...base, role: 'assistant', toolCalls } : undefined;
    }
    case 'tool':
      if (!isName(raw['toolCallId'])) problems.push(`${at} (tool) has no toolCallId`);
      if (typeof raw['isError'] !== 'boolean') problems.push(`${at} (tool) has no boolean isError`);
      return problems.length === before ? { ...base, role: 'tool', toolCallId: String(raw['toolCallId']), isError: raw['isError'] === true } : undefined;
    default:
      problems.push(`${at} has role ${JSON.stringify(raw['role'])}; a group holds user, assistant and tool messages only`);
      return undefined;
  }
}

/** The pairing, id and order problems of a group whose messages are individually well-formed. */
function groupProblems(messages: readonly HistoryMessageInput[], ctx: GroupContext): string[] {
  const problems: string[] = [];
  const [head, ...rest] = messages;
  if (head === undefined) return ['[group-atomic] a group needs at least one message'];
  const ids = new Set<string>();
  for (const m of messages) {
    if (m.id === undefined) continue;
    if (ids.has(m.id) || ctx.messageIds.has(m.id)) problems.push(`duplicate message id ${m.id}`);
    ids.add(m.id);
  }
  if (ctx.first && head.role !== 'user') problems.push(`[provider-valid] the history must start with a user message, not ${head.role}`);
  if (head.role === 'tool') problems.push('[group-atomic] a tool message must follow its assistant message in the same group');
  if (head.role === 'user') {
    if (head.content.trim() === '') problems.push('a user message needs non-empty content');
    if (rest.length > 0) problems.push('[group-atomic] a user message is a group of its own; append the assistant reply as its own group');
  }
  if (head.role !== 'assistant') return problems;
  if (head.content.trim() === '' && head.toolCalls.length === 0) problems.push('an assistant message needs content or at least one tool call');
  const answered = new Map<string, boolean>();
  for (const c of head.toolCalls) {
    if (answered.has(c.id) || ctx.callIds.has(c.id)) problems.push(`duplicate tool call id ${c.id}`);
    answered.set(c.id, false);
  }
  for (const m of rest) {
    if (m.role !== 'tool') {
      problems.push(`[group-atomic] a ${m.role} message cannot sit inside an assistant group; append it as its own group`);
      continue;
    }
    const seen = answered.get(m.toolCallId);
    if (seen === undefined) problems.push(`[no-orphans] tool result for ${m.toolCallId} has no call in this group's assistant message`);
    else if (seen) problems.push(`[group-atomic] tool call ${m.toolCallId} has more than one result`);
    answered.set(m.toolCallId, true);
  }
  for (const [id, done] of answered) if (!done) problems.push(`[group-atomic] tool call ${id} has no result in the group; append the call together with all its results`);
  return problems;
}

/**
 * Read an untrusted group: copies of its messages (with their own fields only, so a caller's later
 * mutation cannot reach the conversation) when it is exactly one non-empty user message, or one
 * assistant message followed by exactly one result per tool call and nothing else, with ids new to
 * the conversation; otherwise every problem. Pure: reading never changes anything, which is what
 * lets the manager refuse a malformed group with nothing changed.
 */
export function readGroup(input: unknown, ctx: GroupContext): ReadGroup {
  if (!Array.isArray(input)) return { ok: false, problems: ['a group is an array of messages'] };
  const problems: string[] = [];
  const messages = input.flatMap((raw: unknown, i) => readMessage(raw, `message ${i}`, ctx.requireIds === true, problems) ?? []);
  if (problems.length > 0) return { ok: false, problems };
  const pairing = groupProblems(messages, ctx);
  return pairing.length > 0 ? { ok: false, problems: pairing } : { ok: true, messages };
}
