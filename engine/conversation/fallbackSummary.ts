import { fitPrefix } from '../compress/clipHeadTail';
import { estimateTokens } from '../tokens/estimateTokens';
import type { Message, UserMessage } from './Message';

/**
 * The native runner's deterministic fallback compaction (`[fallback-bounded]`, `[fallback-hooks]`):
 * no model call, run once per task under pressure, and lossy by declaration.
 */

/** Messages protected at the head, kept at the tail, and the fewest worth compacting between. */
const FALLBACK_LIMITS = { protectHead: 2, keepTail: 4, minRemoved: 2 } as const;
/** The shortest history the fallback can cut anything from. */
export const FALLBACK_MIN_MESSAGES = FALLBACK_LIMITS.protectHead + FALLBACK_LIMITS.minRemoved + FALLBACK_LIMITS.keepTail;

/** Caps of the fallback summary, in UTF-16 characters (`string.length`). */
export interface FallbackCaps {
  /** Characters of one message's preview. */
  previewChars: number;
  /** Characters of one tool name. */
  nameChars: number;
  /** Tool-call names listed per assistant message. */
  maxToolNames: number;
  /** Characters of the whole summary; at least {@link MIN_FALLBACK_CHARS} keeps its header whole. */
  maxChars: number;
}
/** The spec's bounded fallback: 160-character previews, 2,000 characters in all. */
export const DEFAULT_FALLBACK_CAPS: Readonly<FallbackCaps> = Object.freeze({ previewChars: 160, nameChars: 60, maxToolNames: 5, maxChars: 2000 });
/** The smallest `maxChars` that still fits the header and the omission line. */
export const MIN_FALLBACK_CHARS = 600;

/** Remove `messages[from..to)`; or why nothing is removed. */
export type FallbackPlan = { kind: 'cut'; from: number; to: number } | { kind: 'noop'; reason: string };

/**
 * Cut positions that split no tool call from its result: position c (between messages c-1 and c)
 * is unsafe when a call and its result lie on either side of it.
 */
function safeCuts(messages: readonly Message[]): boolean[] {
  const first = new Map<string, number>();
  messages.forEach((m, i) => m.role === 'assistant' && m.toolCalls.forEach((c) => first.has(c.id) || first.set(c.id, i)));
  const latest = new Map<string, number>();
  const depth = new Array<number>(messages.length + 2).fill(0);
  messages.forEach((m, i) => {
    if (m.role === 'assistant') for (const c of m.toolCalls) latest.set(c.id, i);
    if (m.role !== 'tool') return;
    const call = latest.get(m.toolCallId) ?? first.get(m.toolCallId);
    if (call === undefined) return;
    depth[Math.min(call, i) + 1]!++;
    depth[Math.max(call, i) + 1]!--;
  });
  let open = 0;
  return Array.from({ length: messages.length + 1 }, (_, c) => (open += depth[c]!) === 0);
}

/**
 * Which messages the fallback removes. Invariants: the first {@link FALLBACK_LIMITS.protectHead}
 * and the last {@link FALLBACK_LIMITS.keepTail} messages always stay; neither cut separates a tool
 * call from its result (a cut inside a call/result group moves outwards, keeping the group whole:
 * later at the head, earlier at the tail); and at least two messages are removed, otherwise
 * nothing is and the plan says why.
 */
export function planFallback(messages: readonly Message[]): FallbackPlan {
  const n = messages.length;
  const { protectHead, keepTail, minRemoved } = FALLBACK_LIMITS;
  if (n < FALLBACK_MIN_MESSAGES) {
    return { kind: 'noop', reason: `history has ${n} messages; the fallback needs at least ${FALLBACK_MIN_MESSAGES} (${protectHead} protected, ${minRemoved} to compact, ${keepTail} kept)` };
  }
  const safe = safeCuts(messages);
  let from = protectHead;
  while (!safe[from]) from++;
  let to = n - keepTail;
  while (to > 0 && !safe[to]) to--;
  if (to - from < minRemoved) {
    return { kind: 'noop', reason: `only ${Math.max(0, to - from)} message(s) can be compacted without splitting a tool call from its result; at least ${minRemoved} are needed` };
  }
  return { kind: 'cut', from, to };
}

const UNSAFE_CHARS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` on one line (whitespace runs and control or bidirectional characters become one space),
 * at most `maxChars` long, ending in `…` when clipped and never inside a surrogate pair.
 */
export function clipField(text: string, maxChars: number): string {
  const flat = text.replace(UNSAFE_CHARS, ' ').replace(/\s+/g, ' ').trim();
  if (flat.length <= maxChars) return flat;
  if (maxChars < 1) return '';
  return `${flat.slice(0, fitPrefix(flat, maxChars - 1, (s) => s.length))}…`;
}

function lineOf(m: Message, index: number, toolNames: ReadonlyMap<string, string>, caps: FallbackCaps): string {
  const preview = `"${clipField(m.content, caps.previewChars)}"`;
  switch (m.role) {
    case 'tool': {
      const name = clipField(toolNames.get(m.toolCallId) ?? 'unknown tool', caps.nameChars);
      return `- #${index} tool ${name}: ${m.isError ? 'error' : 'ok'} · ${preview}`;
    }
    case 'assistant': {
      if (m.toolCalls.length === 0) return `- #${index} assistant: ${preview}`;
      const names = m.toolCalls.slice(0, caps.maxToolNames).map((c) => clipField(c.name, caps.nameChars));
      const more = m.toolCalls.length - names.length;
      return `- #${index} assistant: ${preview} · calls: ${names.join(', ')}${more > 0 ? ` +${more} more` : ''}`;
    }
    case 'system':
      return `- #${index} system/${m.kind}: ${preview}`;
    default:
      return `- #${index} user: ${preview}`;
  }
}

/**
 * The bounded deterministic summary of removed messages: a header saying it is a lossy reminder
 * and that the current repository state and the retained tool output win, then one line per
 * message (role, tool name and ok/error for tool results, clipped preview). Invariants: every field
 * is within its cap and the whole is at most `caps.maxChars`; messages that do not fit are counted
 * in a closing line, never silently dropped; the same input always gives the same text.
 * `firstIndex` is the position of `removed[0]` in the full history, for the `#n` labels.
 */
export function buildFallbackSummary(removed: readonly Message[], caps: FallbackCaps = DEFAULT_FALLBACK_CAPS, firstIndex = 0): string {
  const toolNames = new Map<string, string>();
  for (const m of removed) if (m.role === 'assistant') for (const c of m.toolCalls) toolNames.set(c.id, c.name);
  const span = removed.length > 0 ? ` (#${firstIndex}–#${firstIndex + removed.length - 1})` : '';
  const header = [
    `[fallback-summary v1] Lossy reminder: ${removed.length} earlier message(s)${span} were compacted without a model call.`,
    'Only roles, tool status and short previews remain. Before editing, trust the current repository state and the retained tool output over this summary.',
  ].join('\n');
  const omitted = (k: number) => `… ${k} more message(s) omitted to stay within ${caps.maxChars} characters.`;
  const reserve = 1 + omitted(removed.length).length;
  const lines = removed.map((m, i) => lineOf(m, firstIndex + i, toolNames, caps));
  let text = header;
  let kept = 0;
  for (const line of lines) {
    const isLast = kept === lines.length - 1;
    if (text.length + 1 + line.length + (isLast ? 0 : reserve) > caps.maxChars) break;
    text += `\n${line}`;
    kept++;
  }
  if (kept < lines.length) text += `\n${omitted(lines.length - kept)}`;
  return text.length <= caps.maxChars ? text : clipLines(text, caps.maxChars);
}

/** The hard cap for caps below {@link MIN_FALLBACK_CHARS}: a prefix, cut at a line when possible. */
function clipLines(text: string, maxChars: number): string {
  return maxChars < 1 ? '' : `${text.slice(0, fitPrefix(text, maxChars - 1, (s) => s.length))}…`;
}

/** Runs before the cut; returns a reason to deny it, or undefined to allow it. */
export interface PreCompactHook {
  name: string;
  run(plan: { from: number; to: number; removedIds: readonly string[] }): string | undefined | Promise<string | undefined>;
}
/** Runs after a cut with its event; it cannot undo the cut. */
export interface PostCompactHook {
  name: string;
  run(event: FallbackEvent): void | Promise<void>;
}

/** What a fallback run did, for the event log and the audit; written for skips and denials too. */
export interface FallbackEvent {
  kind: 'fallback_compaction';
  outcome: 'compacted' | 'denied' | 'skipped';
  removedIds: string[];
  keptIds: string[];
  summaryChars: number;
  /** `estimateTokens` of the summary: a cap-grade figure, not a tokenizer count. */
  summaryTokens: number;
  /** The pre-compact hook that denied the cut. */
  deniedBy?: string;
  /** Why nothing was removed (a skip or a denial). */
  reason?: string;
  /** Post-compact hooks that threw; the cut stands. */
  postHookFailures?: { name: string; message: string }[];
}

/** One fallback run: the runner's whole message list, its hooks, and the injected summary id. */
export interface FallbackInput<M extends Message> {
  messages: readonly M[];
  /** Id of the summary message (ids are injected so runs are reproducible). */
  summaryId: string;
  preCompact?: readonly PreCompactHook[];
  postCompact?: readonly PostCompactHook[];
  caps?: FallbackCaps;
}

/** The history after the run and its event. */
export interface FallbackResult<M extends Message> {
  /** The new history; the input array itself when nothing changed. */
  messages: readonly (M | UserMessage)[];
  event: FallbackEvent;
}

const errorText = (err: unknown): string => clipField(err instanceof Error ? err.message : String(err), 200);

/**
 * Plan, ask the pre-compact hooks, cut, summarize, then run the post-compact hooks. Invariants: a
 * skip or a denial (including a pre hook that throws: fail closed) returns the input unchanged with
 * the reason in the event; otherwise the removed messages are replaced in place by exactly one
 * summary message and every other message is kept as the same object, in order. The summary is
 * injected context in a user-role message (marked `[fallback-summary v1]`), because it sits inside
 * the history, where providers accept no system-role message.
 */
export async function runFallback<M extends Message>(input: FallbackInput<M>): Promise<FallbackResult<M>> {
  const { messages } = input;
  const unchanged = (extra: Partial<FallbackEvent>): FallbackResult<M> => ({
    messages,
    event: { kind: 'fallback_compaction', outcome: 'skipped', removedIds: [], keptIds: messages.map((m) => m.id), summaryChars: 0, summaryTokens: 0, ...extra },
  });
  const plan = planFallback(messages);
  if (plan.kind === 'noop') return unchanged({ reason: plan.reason });
  const removed = messages.slice(plan.from, plan.to);
  const removedIds = removed.map((m) => m.id);
  for (const hook of input.preCompact ?? []) {
    let reason: string | undefined;
    try {
      reason = await hook.run({ from: plan.from, to: plan.to, removedIds: [...removedIds] });
    } catch (err) {
      reason = `pre-compact hook failed: ${errorText(err)}`;
    }
    if (reason !== undefined) return unchanged({ outcome: 'denied', deniedBy: hook.name, reason });
  }
  const content = buildFallbackSummary(removed, input.caps ?? DEFAULT_FALLBACK_CAPS, plan.from);
  const summary: UserMessage = { id: input.summaryId, role: 'user', content };
  const next = [...messages.slice(0, plan.from), summary, ...messages.slice(plan.to)];
  const event: FallbackEvent = {
    kind: 'fallback_compaction',
    outcome: 'compacted',
    removedIds,
    keptIds: [...messages.slice(0, plan.from), ...messages.slice(plan.to)].map((m) => m.id),
    summaryChars: content.length,
    summaryTokens: estimateTokens(content),
  };
  const failures: { name: string; message: string }[] = [];
  for (const hook of input.postCompact ?? []) {
    try {
      await hook.run({ ...event, removedIds: [...removedIds], keptIds: [...event.keptIds] });
    } catch (err) {
      failures.push({ name: hook.name, message: errorText(err) });
    }
  }
  return { messages: next, event: failures.length > 0 ? { ...event, postHookFailures: failures } : event };
}
