import type { AgentDto, AgentStatus } from '../../../engine/contract';
import { cacheHitRate } from '../../../engine/metrics/cacheHitRate';
import type { RootState } from '../reduce';

/** One visible row of the agent tree. */
export interface TreeRow {
  agent: AgentDto;
  depth: number;
  hasChildren: boolean;
  collapsed: boolean;
}

const matches = (a: AgentDto, text: string) =>
  [a.agentId, a.role, a.task, a.status, a.model].some((f) => f.toLowerCase().includes(text));

/** Locale-independent id order, the same in the tree and in every list of children. */
const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The agent tree flattened in display order (depth-first, siblings by id). With a filter (text and/or
 * statuses, both must hold), an agent shows when it or a descendant matches, so matches keep their ancestry; collapsing is ignored
 * while filtering.
 */
export const selectTreeRows = memoizeLast(
  (s: RootState): [RootState['agents'], Record<string, true>, string, RootState['ui']['statusFilter']] => [s.agents, s.ui.collapsed, s.ui.filter, s.ui.statusFilter],
  buildTreeRows,
);

function buildTreeRows(agents: RootState['agents'], collapsedIds: Record<string, true>, filter: string, statuses: RootState['ui']['statusFilter'] = []): TreeRow[] {
  const { byId, order } = agents;
  const children = new Map<string | null, string[]>();
  for (const id of order) {
    const a = byId[id];
    if (!a) continue;
    const parent = a.parent !== null && byId[a.parent] ? a.parent : null;
    const list = children.get(parent) ?? [];
    list.push(id);
    children.set(parent, list);
  }
  for (const list of children.values()) list.sort(byCodeUnits);

  const text = filter.trim().toLowerCase();
  const filtering = text !== '' || statuses.length > 0;
  const visible = new Set<string>();
  if (filtering) {
    const mark = (id: string): boolean => {
      const a = byId[id] as AgentDto;
      let any = matches(a, text) && (statuses.length === 0 || statuses.includes(a.status));
      for (const c of children.get(id) ?? []) any = mark(c) || any;
      if (any) visible.add(id);
      return any;
    };
    for (const root of children.get(null) ?? []) mark(root);
  }

  const rows: TreeRow[] = [];
  const walk = (id: string, depth: number) => {
    if (filtering && !visible.has(id)) return;
    const kids = (children.get(id) ?? []).filter((c) => !filtering || visible.has(c));
    const collapsed = !filtering && Boolean(collapsedIds[id]);
    rows.push({ agent: byId[id] as AgentDto, depth, hasChildren: kids.length > 0, collapsed });
    if (!collapsed) for (const c of kids) walk(c, depth + 1);
  };
  for (const root of children.get(null) ?? []) walk(root, 0);
  return rows;
}

/**
 * How many agents have each status, in the order of `statuses` (the tree's chips). One pass over
 * the agents, and the same array until the agents change: every subscriber runs on every store change.
 */
export function selectStatusCounts(statuses: readonly AgentStatus[]): (s: RootState) => number[] {
  return memoizeLast(
    (s: RootState): [RootState['agents']] => [s.agents],
    ({ byId, order }) => {
      const at = new Map(statuses.map((st, i) => [st, i]));
      const counts = statuses.map(() => 0);
      for (const id of order) {
        const status = byId[id]?.status;
        const i = status === undefined ? undefined : at.get(status);
        if (i !== undefined) counts[i] = (counts[i] as number) + 1;
      }
      return counts;
    },
  );
}

export const selectSelectedAgent = (s: RootState): AgentDto | undefined =>
  s.ui.selectedAgentId ? s.agents.byId[s.ui.selectedAgentId] : undefined;

/** Direct children of an agent, by id. */
export const selectChildren = (s: RootState, agentId: string): AgentDto[] =>
  s.agents.order
    .map((id) => s.agents.byId[id] as AgentDto)
    .filter((a) => a.parent === agentId)
    .sort((a, b) => byCodeUnits(a.agentId, b.agentId));

/** Workspace totals for the header: agent counts and the pooled provider hit rate (`cacheHitRate` of the summed usage). */
export function selectTotals(s: RootState): { agents: number; running: number; hitRate: number } {
  const agents = s.agents.order.map((id) => s.agents.byId[id] as AgentDto);
  const sum = { input: 0, cacheRead: 0, cacheWrite: 0 };
  for (const a of agents) {
    sum.input += a.usage.input;
    sum.cacheRead += a.usage.cacheRead;
    sum.cacheWrite += a.usage.cacheWrite;
  }
  return { agents: agents.length, running: agents.filter((a) => a.status === 'running').length, hitRate: cacheHitRate(sum) };
}

/**
 * Cache the last result by the identity of its inputs, so a selector that builds new objects
 * returns the same array until its inputs change (React requires stable snapshots).
 */
function memoizeLast<I extends unknown[], R>(inputs: (s: RootState) => I, compute: (...args: I) => R): (s: RootState) => R {
  let last: { args: I; result: R } | undefined;
  return (s) => {
    const args = inputs(s);
    if (last && args.length === last.args.length && args.every((a, i) => a === last?.args[i])) return last.result;
    const result = compute(...args);
    last = { args, result };
    return result;
  };
}
