import { fitPrefix } from '../compress/clipHeadTail';
import { clipField } from './fallbackSummary';

/**
 * The workspace reminder after a compaction (`[reminder-one-shot]`): a summary keeps the
 * conversation, not the model's picture of the workspace as it is now, so the next request gets
 * one bounded snapshot of it, exactly once per compaction.
 */

/** What the host knows about the workspace right now; the reminder shows it, never infers it. */
export interface WorkspaceFacts {
  changedFiles: readonly string[];
  lastCheck: { command: string; status: string } | undefined;
  recentPaths: readonly string[];
  allowedPaths: readonly string[];
  /** How the work is verified (a command or a sentence). */
  verification: string | undefined;
  remainingSteps: number | undefined;
  tokenLimit: number | undefined;
}

/** Caps of the reminder, in UTF-16 characters (`string.length`). */
export interface WorkspaceReminderCaps {
  /** Entries shown per list. */
  maxItems: number;
  /** Characters of one path, command or status. */
  fieldChars: number;
  /** Characters of the whole reminder. */
  maxChars: number;
}
/** 8 entries per list, 160 characters per field, 1,200 in all. */
export const DEFAULT_WORKSPACE_REMINDER_CAPS: Readonly<WorkspaceReminderCaps> = Object.freeze({ maxItems: 8, fieldChars: 160, maxChars: 1200 });

const HEADER =
  '[workspace reminder v1] The context was compacted. Re-anchor on the workspace before the next action; ' +
  'the repository and fresh tool output are authoritative over anything remembered.';

const count = (n: number | undefined): string | undefined => (n !== undefined && Number.isFinite(n) ? String(Math.max(0, Math.trunc(n))) : undefined);

/**
 * A path on one line within `maxChars`, clipped in the middle: its start says where it is and its
 * end names the file, so two long paths in one folder stay distinguishable.
 */
function clipPath(path: string, maxChars: number): string {
  const flat = clipField(path, Number.MAX_SAFE_INTEGER);
  if (flat.length <= maxChars) return flat;
  const room = Math.max(0, maxChars - 1);
  const head = flat.slice(0, fitPrefix(flat, Math.floor(room * 0.4), (t) => t.length));
  let start = flat.length - (room - head.length);
  const code = (i: number) => flat.charCodeAt(i);
  // Never start inside a surrogate pair: that would leave half a character.
  if (start > 0 && code(start) >= 0xdc00 && code(start) <= 0xdfff && code(start - 1) >= 0xd800 && code(start - 1) <= 0xdbff) start++;
  return maxChars < 1 ? '' : `${head}…${flat.slice(start)}`;
}

/** `label (N): a, b … +k more` within `budget` characters, at most `caps.maxItems` entries. */
function listLine(label: string, values: readonly string[], budget: number, caps: WorkspaceReminderCaps): string {
  const unique = [...new Set(values.map((v) => clipField(v, Number.MAX_SAFE_INTEGER)).filter((v) => v !== ''))];
  const entries = unique.map((v) => clipPath(v, caps.fieldChars));
  if (entries.length === 0) return `${label}: none`;
  const head = `${label} (${entries.length}): `;
  const shown: string[] = [];
  for (const entry of entries.slice(0, caps.maxItems)) {
    const rest = entries.length - shown.length - 1;
    const line = head + [...shown, entry].join(', ') + (rest > 0 ? ` … +${rest} more` : '');
    if (line.length > budget) break;
    shown.push(entry);
  }
  const more = entries.length - shown.length;
  return head + shown.join(', ') + (more > 0 ? `${shown.length > 0 ? ' ' : ''}… +${more} more` : '');
}

/**
 * One reminder text from the workspace facts. Invariants: deterministic (same facts, same text;
 * lists keep the caller's order, first occurrence wins); at most `caps.maxChars` characters, every
 * field at most `caps.fieldChars`, every list at most `caps.maxItems` entries, with how many were
 * left out; one line per fact so no value can forge another line. The three path lists share the
 * room the fixed lines leave, the shortest served first, so a long list cannot crowd out the rest.
 */
export function buildWorkspaceReminder(facts: WorkspaceFacts, caps: WorkspaceReminderCaps = DEFAULT_WORKSPACE_REMINDER_CAPS): string {
  const check = facts.lastCheck ? `Last check: ${clipField(facts.lastCheck.command, caps.fieldChars)} → ${clipField(facts.lastCheck.status, 40)}` : 'Last check: none recorded';
  const limits = [
    facts.verification !== undefined ? `verification: ${clipField(facts.verification, caps.fieldChars)}` : undefined,
    count(facts.remainingSteps) !== undefined ? `remaining steps: ${count(facts.remainingSteps)}` : undefined,
    count(facts.tokenLimit) !== undefined ? `token limit: ${count(facts.tokenLimit)}` : undefined,
  ].filter((p) => p !== undefined);
  const constraints = `Constraints: ${limits.length > 0 ? limits.join(' · ') : 'none recorded'}`;
  const lists = [
    { label: 'Changed files', values: facts.changedFiles },
    { label: 'Recent important paths', values: facts.recentPaths },
    { label: 'Allowed paths', values: facts.allowedPaths },
  ];
  let room = caps.maxChars - [HEADER, check, constraints].join('\n').length - lists.length;
  const order = lists.map((l, i) => ({ i, need: listLine(l.label, l.values, Infinity, caps).length })).sort((a, b) => a.need - b.need || a.i - b.i);
  const lines: string[] = [];
  order.forEach(({ i }, k) => {
    const list = lists[i]!;
    const line = listLine(list.label, list.values, Math.max(0, Math.floor(room / (order.length - k))), caps);
    room -= line.length;
    lines[i] = line;
  });
  const text = [HEADER, lines[0], check, lines[1], lines[2], constraints].join('\n');
  return text.length <= caps.maxChars ? text : caps.maxChars < 1 ? '' : `${text.slice(0, fitPrefix(text, caps.maxChars - 1, (s) => s.length))}…`;
}

/** Compactions remembered to recognise a replayed one; older ids are forgotten first. */
const HANDLED_LIMIT = 32;

/**
 * The one-shot marker, persisted with the conversation. `pending` is the compaction whose
 * reminder is still owed; `handled` the compactions already marked, so one replayed on resume
 * (the same CompactionCompleted read again) is not owed a second time.
 */
export interface ReminderState {
  version: 1;
  pending: string | null;
  handled: readonly string[];
}

/** A conversation that has never been compacted: nothing owed. */
export const INITIAL_REMINDER_STATE: ReminderState = Object.freeze({ version: 1, pending: null, handled: Object.freeze([]) as readonly string[] });

/** After compaction `compactionId`: a reminder is owed, unless this compaction was already marked. */
export function markCompacted(state: ReminderState, compactionId: string): ReminderState {
  if (state.handled.includes(compactionId)) return state;
  return { version: 1, pending: compactionId, handled: [...state.handled, compactionId].slice(-HANDLED_LIMIT) };
}

/**
 * Whether the next request injects the reminder, and the state to persist with it. Invariant:
 * `inject` is true at most once per pending marker, since the returned state has consumed it;
 * several compactions before one request still owe one reminder.
 */
export function takeReminder(state: ReminderState): { state: ReminderState; inject: boolean } {
  return state.pending === null ? { state, inject: false } : { state: { ...state, pending: null }, inject: true };
}

/** A persisted state read back (e.g. from JSON), or why it cannot be used. */
export function restoreReminderState(value: unknown): ReminderState | { kind: 'reminder_state_error'; message: string } {
  const v = value as Partial<ReminderState> | null;
  const ok =
    typeof v === 'object' && v !== null && v.version === 1 && (v.pending === null || typeof v.pending === 'string') &&
    Array.isArray(v.handled) && v.handled.every((id) => typeof id === 'string');
  if (!ok) return { kind: 'reminder_state_error', message: '[reminder-one-shot] not a reminder state: expected { version: 1, pending: string | null, handled: string[] }' };
  return { version: 1, pending: v.pending ?? null, handled: [...(v.handled ?? [])].slice(-HANDLED_LIMIT) };
}
