/**
 * The role each replayed agent gets, from what the recording shows of it (`[replay-roles]`): the
 * main agent is the `primary` when it launches subagents, else a `worker`; a subagent takes the role
 * its recorded type maps to (`AGENT_TYPE_ROLES`), else `worker`. A role decides the agent's L0
 * instructions, how it scores each kind of item, and what `role_optimized` leaves out. Pure.
 */
import type { AgentRole } from '../../contract';
import type { TraceEvent } from '../TraceEvent';
import type { AgentKey } from './walkTrace';

/** An agent's role and what it rests on. */
export interface RoleChoice {
  role: AgentRole;
  why: string;
}

/**
 * Recorded agent types and the role each plays, first match wins. The types are the clients' own:
 * Claude Code's built-in subagents (`Explore`, a read-only search agent; `Plan`, which designs an
 * implementation plan; `general-purpose`, which does any task) and Codex's built-in agent roles
 * (`explorer`, `worker`, `default`); the keyword rows map custom types by their name.
 */
const AGENT_TYPE_ROLES: readonly { pattern: RegExp; role: AgentRole; types: string }[] = [
  { pattern: /\bexplor|\bsearch|\bresearch|\bscout|\bprobe/i, role: 'probe', types: 'Claude Code Explore, Codex explorer, search and research agents' },
  { pattern: /\breview|\baudit/i, role: 'reviewer', types: 'review and audit agents' },
  { pattern: /\bdebug|\bdiagnos/i, role: 'debug', types: 'debug agents' },
  { pattern: /\btest|\bqa\b/i, role: 'test', types: 'test agents' },
  { pattern: /\bplan|\barchitect|\bdesign/i, role: 'architect', types: 'Claude Code Plan, planning and architecture agents' },
  { pattern: /\bintegrat|\bmerge/i, role: 'integration', types: 'integration agents' },
  { pattern: /^(?:general-purpose|worker|default)$/i, role: 'worker', types: 'Claude Code general-purpose, Codex worker and default' },
];

/**
 * The agent type in a `subagent_spawn` label: Claude Code's is `<agentType>: <description>` (the
 * type), Codex's `<agent path> <nickname>` (the path's last segment, e.g. `/root/explorer`).
 */
export function agentTypeOf(label: string | undefined): string | undefined {
  if (!label) return undefined;
  const head = (label.split(': ')[0] ?? '').trim().split(/\s+/)[0] ?? '';
  const type = head.split('/').filter(Boolean).at(-1);
  return type && type !== '' ? type : undefined;
}

/** The role of a subagent of recorded type `type` (`AGENT_TYPE_ROLES`), else `worker`. */
export function roleOfAgentType(type: string | undefined): RoleChoice {
  if (type === undefined) return { role: 'worker', why: 'subagent of unrecorded type' };
  const row = AGENT_TYPE_ROLES.find((r) => r.pattern.test(type));
  return row ? { role: row.role, why: `subagent type ${type}` } : { role: 'worker', why: `subagent type ${type} (no role of its own)` };
}

/** Every agent of `events` with its role: the main agent (key undefined) and each subagent by its first spawn's label. */
export function replayRoles(events: readonly TraceEvent[]): Map<AgentKey, RoleChoice> {
  const labels = new Map<string, string | undefined>();
  for (const e of events) {
    if (e.agentId === undefined) continue;
    // The first spawn that names a type decides, even when the agent's events came first.
    if (e.type === 'subagent_spawn' && labels.get(e.agentId) === undefined) labels.set(e.agentId, e.label);
    else if (!labels.has(e.agentId)) labels.set(e.agentId, undefined);
  }
  const roles = new Map<AgentKey, RoleChoice>();
  roles.set(undefined, labels.size > 0 ? { role: 'primary', why: `main agent, launches ${labels.size} subagent${labels.size === 1 ? '' : 's'}` } : { role: 'worker', why: 'main agent, launches no subagent' });
  for (const [id, label] of labels) roles.set(id, roleOfAgentType(agentTypeOf(label)));
  return roles;
}
