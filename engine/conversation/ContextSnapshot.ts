import { AUDIT_TRAIL_LIMIT, type Audit } from './ContextAudit';
import type { HistoryMessage, SummaryMessage, SystemMessage, TurnGroup } from './Message';
import { readGroup, withId } from './readGroup';

/** The snapshot format this code writes and reads. */
export const CONTEXT_SNAPSHOT_VERSION = 1;

/**
 * Everything a conversation persists, as plain JSON-safe data. Invariant: no transient is ever in
 * it (`[transient-not-persisted]`): retrieved memory, skills and runtime state are for one request
 * only. Exactly one system prompt, at most one summary, and groups in order that are each atomic.
 */
export interface ContextSnapshot {
  schemaVersion: typeof CONTEXT_SNAPSHOT_VERSION;
  system: SystemMessage;
  summary: SummaryMessage | null;
  groups: TurnGroup[];
  /** The applied audits, oldest first, at most {@link AUDIT_TRAIL_LIMIT}. */
  audits: Audit[];
  /** The number of the newest lease issued, so leases keep increasing after a restore. */
  lastTurn: number;
}

/** A snapshot read back: a fresh, validated copy, or every problem found. */
export type ReadSnapshot = { ok: true; snapshot: ContextSnapshot } | { ok: false; problems: string[] };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isName = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const isNames = (v: unknown): v is string[] => Array.isArray(v) && v.every(isName);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

function readAudit(raw: unknown): Audit | undefined {
  if (!isRecord(raw)) return undefined;
  const { operation, outcome, removedMessageIds, removedGroupIds, removedTurnIds, addedMessageIds, reason, tokensBefore, tokensAfter, overBudget, at } = raw;
  if (operation !== 'truncate' && operation !== 'compress') return undefined;
  if (outcome !== 'applied' && outcome !== 'unchanged' && outcome !== 'failed') return undefined;
  if (!isNames(removedMessageIds) || !isNames(removedGroupIds) || !isNames(removedTurnIds) || !isNames(addedMessageIds)) return undefined;
  if (typeof reason !== 'string' || !isCount(tokensBefore) || !isCount(tokensAfter) || typeof at !== 'number') return undefined;
  if (overBudget !== undefined && typeof overBudget !== 'boolean') return undefined;
  const audit: Audit = { operation, outcome, removedMessageIds: [...removedMessageIds], removedGroupIds: [...removedGroupIds], removedTurnIds: [...removedTurnIds], addedMessageIds: [...addedMessageIds], reason, tokensBefore, tokensAfter, at };
  if (overBudget !== undefined) audit.overBudget = overBudget;
  return audit;
}

/**
 * Validate untrusted persisted data (a file, a database row) as a snapshot and copy it. Every
 * invariant the live manager keeps is checked again, because a restored conversation must be as
 * valid as one built through the API: the version, one canonical system message, at most one
 * summary, each group atomic, ids unique.
 */
export function readSnapshot(raw: unknown): ReadSnapshot {
  if (!isRecord(raw)) return { ok: false, problems: ['a snapshot is an object'] };
  const problems: string[] = [];
  if (raw['schemaVersion'] !== CONTEXT_SNAPSHOT_VERSION) problems.push(`unknown schemaVersion ${JSON.stringify(raw['schemaVersion'])}; this build reads ${CONTEXT_SNAPSHOT_VERSION}`);
  const s = raw['system'];
  const system: SystemMessage | undefined =
    isRecord(s) && isName(s['id']) && s['role'] === 'system' && s['kind'] === 'canonical' && isName(s['content']) ? { id: s['id'], role: 'system', kind: 'canonical', content: s['content'] } : undefined;
  if (!system) problems.push('[one-system-prompt] system must be one canonical system message with an id and non-empty content');
  const u = raw['summary'];
  let summary: SummaryMessage | null = null;
  if (u !== null) {
    if (isRecord(u) && isName(u['id']) && u['role'] === 'system' && u['kind'] === 'summary' && isName(u['content']) && isNames(u['sourceTurnIds'])) {
      summary = { id: u['id'], role: 'system', kind: 'summary', content: u['content'], sourceTurnIds: [...u['sourceTurnIds']] };
    } else problems.push('[one-summary] summary must be null or one summary system message with an id, content and sourceTurnIds');
  }
  const messageIds = new Set<string>([system?.id ?? '', summary?.id ?? ''].filter(isName));
  if (system && summary && system.id === summary.id) problems.push(`system and summary share the id ${system.id}`);
  const callIds = new Set<string>();
  const groupIds = new Set<string>();
  const groups: TurnGroup[] = [];
  const rawGroups = Array.isArray(raw['groups']) ? raw['groups'] : (problems.push('groups must be an array'), []);
  rawGroups.forEach((g: unknown, i) => {
    if (!isRecord(g) || !isName(g['id']) || !isName(g['turnId'])) return void problems.push(`group ${i} needs an id and a turnId`);
    if (groupIds.has(g['id'])) problems.push(`duplicate group id ${g['id']}`);
    groupIds.add(g['id']);
    // A kept history may start with an assistant group after a cut (the resume bridge opens it), so only a fresh append must start with a user message.
    const read = readGroup(g['messages'], { messageIds, callIds, first: false, requireIds: true });
    if (!read.ok) return void problems.push(...read.problems.map((p) => `group ${g['id']}: ${p}`));
    const messages: HistoryMessage[] = read.messages.map((m) => withId(m, m.id ?? ''));
    for (const m of messages) {
      messageIds.add(m.id);
      if (m.role === 'assistant') for (const c of m.toolCalls) callIds.add(c.id);
    }
    groups.push({ id: g['id'], turnId: g['turnId'], messages });
  });
  const rawAudits = Array.isArray(raw['audits']) ? raw['audits'] : (problems.push('audits must be an array'), []);
  const audits = rawAudits.slice(-AUDIT_TRAIL_LIMIT).map(readAudit);
  if (audits.some((a) => a === undefined)) problems.push('every audit needs operation, outcome, id lists, reason, token counts and at');
  if (!isCount(raw['lastTurn'])) problems.push('lastTurn must be a non-negative integer');
  if (problems.length > 0 || !system) return { ok: false, problems };
  return { ok: true, snapshot: { schemaVersion: CONTEXT_SNAPSHOT_VERSION, system, summary, groups, audits: audits as Audit[], lastTurn: raw['lastTurn'] as number } };
}
