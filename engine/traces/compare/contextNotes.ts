/**
 * What a comparison's context windows and agent roles rest on, as lines under its table: each
 * trace's window with where it came from (`[replay-window-default]`), each multi-agent trace's roles,
 * and, where `role_optimized` gave `variable`'s figures, why (`[replay-roles]`). Pure.
 */
import type { WindowChoice } from '../replay/ReplayTypes';
import { windowCell, windowLabel } from '../replay/replayWindow';
import type { ReplayResult } from '../replay/ReplayTypes';

const names = (traces: readonly string[]) => (traces.length <= 4 ? traces.join(', ') : `${traces.slice(0, 4).join(', ')} and ${traces.length - 4} more`);

/** The windows of several replays, grouped: `200,000 (model table)` for one kind, `… ×3; none ×1` for several. */
export function windowSummary(choices: readonly (WindowChoice | undefined)[], optionName?: string): string {
  const counts = new Map<string, number>();
  for (const c of choices) {
    const label = c ? windowCell(c, optionName) : 'not checked';
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  if (counts.size <= 1) return [...counts.keys()][0] ?? '-';
  return [...counts].map(([label, n]) => `${label} ×${n}`).join('; ');
}

/** One line per distinct window: `context window 200,000: recorded model … (a.jsonl, b.jsonl)`. */
export function windowNotes(entries: readonly { trace: string; result: ReplayResult }[], optionName = '--window'): string[] {
  const byLabel = new Map<string, Set<string>>();
  for (const { trace, result } of entries) {
    if (!result.window) continue;
    const label = windowLabel(result.window, optionName);
    byLabel.set(label, (byLabel.get(label) ?? new Set()).add(trace));
  }
  const lines = [...byLabel].map(([label, traces]) => `context window ${label} (${names([...traces])})`);
  const over = new Map<string, Set<string>>();
  for (const { trace, result } of entries) {
    const tokens = result.window?.tokens;
    if (tokens == null || result.budget === null || result.budget <= tokens) continue;
    const key = `budget ${result.budget.toLocaleString('en-US')} is over the ${tokens.toLocaleString('en-US')}-token window`;
    over.set(key, (over.get(key) ?? new Set()).add(trace));
  }
  for (const [key, traces] of over) lines.push(`${key} (${names([...traces])}): a request that fills the budget is refused, so those rows refresh at most twice a step and may still send requests over the window`);
  if (lines.length > 0) lines.push('context window: a request of more prompt tokens (the fixed prefix included, in the provider\'s tokens), or a step whose recorded prompt had more, is refused as the provider would and the engine refreshes, at most twice a step; refreshes counts those refreshes');
  return lines;
}

const count = (roles: readonly string[]) => {
  const byRole = new Map<string, number>();
  for (const r of roles) byRole.set(r, (byRole.get(r) ?? 0) + 1);
  return [...byRole].map(([r, k]) => (k > 1 ? `${r} ×${k}` : r)).join(', ');
};

/** Whether two replays priced exactly the same tokens at every step. */
const sameFigures = (a: ReplayResult, b: ReplayResult) =>
  a.steps.length === b.steps.length && a.steps.every((s, i) => {
    const t = b.steps[i]!;
    return s.input === t.input && s.cacheRead === t.cacheRead && s.cacheWrite === t.cacheWrite && s.promptBytes === t.promptBytes;
  });

/**
 * Per trace, the roles its replayed agents were given (for a trace with subagents); and where
 * `role_optimized` and `variable` both ran at a budget and priced the same tokens at every step,
 * why: no agent in a role it cuts for (a primary, a probe), or, when there is one, that nothing it
 * cuts reached the agent. Traces with the same reason at the same budgets share one line.
 */
export function roleNotes(entries: readonly { trace: string; result: ReplayResult }[]): string[] {
  const lines: string[] = [];
  const same = new Map<string, { reason: string; at: string; traces: string[] }>();
  for (const trace of [...new Set(entries.map((e) => e.trace))]) {
    const mine = entries.filter((e) => e.trace === trace).map((e) => e.result);
    const agents = mine.find((r) => r.agents)?.agents;
    if (!agents) continue;
    const main = agents.find((a) => a.agentId === null);
    const subs = agents.filter((a) => a.agentId !== null);
    if (subs.length > 0) lines.push(`agent roles on ${trace}: ${main ? `main agent ${main.role} (${main.why})` : 'no main agent'}; subagents ${count(subs.map((a) => `${a.role} (${a.why})`))}`);
    const budgets = mine.filter((ro) => ro.strategy === 'role_optimized' && mine.some((v) => v.strategy === 'variable' && v.budget === ro.budget && sameFigures(v, ro))).map((r) => r.budget);
    if (budgets.length === 0) continue;
    const cutting = agents.filter((a) => a.role === 'primary' || a.role === 'probe');
    const who = agents.length === 1 ? `one agent, role ${agents[0]!.role}` : `${agents.length} agents, roles ${count(agents.map((a) => a.role))}`;
    const reason =
      cutting.length === 0
        ? `${who}; role_optimized differs only for a primary (it leaves out raw code and tool output) and for probes (unrelated reports)`
        : `${who}; nothing role_optimized leaves out for the ${count(cutting.map((a) => a.role))} reached them`;
    const at = budgets.some((b) => b !== null) ? ` at ${budgets.map((b) => (b === null ? 'no budget' : b.toLocaleString('en-US'))).join(' and ')}` : '';
    const key = `${reason}\u0000${at}`;
    const group = same.get(key) ?? { reason, at, traces: [] };
    group.traces.push(trace);
    same.set(key, group);
  }
  for (const { reason, at, traces } of same.values()) lines.push(`role_optimized = variable on ${traces.length === 1 ? traces[0] : `${traces.length} traces`}${at}${traces.length === 1 ? '' : ` (${names(traces)})`}: ${reason}`);
  return lines;
}
