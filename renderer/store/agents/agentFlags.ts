import type { AgentDto } from '../../../engine/contract';
import { contextLimitMessage } from '../../../engine/shared/contextLimitReason';
import { percent, tokens } from '../../components/format';
import { budgetText, limitNote } from './budgets';
import type { RootState } from '../reduce';
import { selectActiveRun } from '../runs/runsSelectors';

/** What can be wrong with an agent, in the order a row shows its flags (the worst first). */
const FLAG_KINDS = ['error', 'refreshed', 'overBudget', 'lowHitRate', 'stalled'] as const;
type FlagKind = (typeof FLAG_KINDS)[number];

/**
 * Every threshold of the tree's flags, defined once: the rows, their tooltips and the tests read
 * these, so a tooltip always states the rule that raised its flag.
 */
export const FLAG_THRESHOLDS = {
  /** Low hit rate: the agent's provider cache hit rate is below this share… */
  lowHitRate: 0.3,
  /** …once its calls sent at least this many prompt tokens (one cold first call is not a problem). */
  lowHitRateMinPromptTokens: 20_000,
  /** Over budget: tokens in context above this share of the agent's engine budget (pinned and mandatory items may overflow it). */
  overBudget: 1,
  /** Stalled: a running agent, in a running run, with no change for this long (wall clock). */
  stalledMs: 60_000,
} as const;

/** Where the explanation of a flag is: the view (and the generation or event kind in it) to open. */
export type FlagCause =
  | { view: 'events'; agentId: string; kinds: ('error' | 'refresh' | 'turn')[] }
  | { view: 'agent'; agentId: string; generation: number | null }
  | { view: 'charts'; agentId: string };

export interface AgentFlag {
  kind: FlagKind;
  /** A short chip label. */
  label: string;
  /** What was seen and the rule it broke (the row's tooltip lists these). */
  detail: string;
  cause: FlagCause;
}

/** What the flags read besides the agent itself. */
export interface FlagFacts {
  /** Whether the run is running (a paused or stopped run stalls nobody). */
  runRunning: boolean;
  /** Now, in milliseconds since the epoch (wall clock, like `updatedAt`). */
  now: number;
}

const LABEL: Record<FlagKind, string> = { error: 'error', refreshed: 'refreshed', overBudget: 'over budget', lowHitRate: 'low hit', stalled: 'stalled' };

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

/** A context-limit refresh: the generation it began and the provider's refusal that forced it. */
interface LimitRefresh {
  generation: number;
  reason: string;
}

/**
 * The context-limit refresh that began the agent's current generation, read from how the host says
 * that generation began (`AgentDto.boundary`, `[agent-boundary]`); undefined when it began any other
 * way. A page that loads the agents reads the same as one that saw the refresh happen.
 */
export function limitRefreshOf(agent: Pick<AgentDto, 'generation' | 'boundary'>): LimitRefresh | undefined {
  const b = agent.boundary;
  const message = b?.kind === 'refresh' ? contextLimitMessage(b.reason) : null;
  return message === null ? undefined : { generation: agent.generation, reason: message };
}

/** The flags of one agent, worst first; none for an agent that is doing fine. */
export function agentFlags(agent: AgentDto, facts: FlagFacts): AgentFlag[] {
  const id = agent.agentId;
  const flags: AgentFlag[] = [];
  const add = (kind: FlagKind, detail: string, cause: FlagCause) => flags.push({ kind, label: LABEL[kind], detail, cause });

  // The newest error comes with the agent (`[agent-last-error]`): a page that loads the agents reads
  // the same flag, with the same text, as one that saw the error happen.
  if (agent.status === 'failed' || agent.lastError) {
    const what = agent.lastError?.message ?? `the agent failed`;
    add('error', `Error: ${what}`, { view: 'events', agentId: id, kinds: ['error'] });
  }
  // A context-limit refresh matters while the agent works in the generation it led to.
  const refresh = limitRefreshOf(agent);
  if (refresh) {
    const limit = limitNote(refresh.reason, agent.budget);
    add('refreshed', `Refreshed by a context limit into generation ${refresh.generation}: ${refresh.reason}${limit ? ` (${limit})` : ''}`, {
      view: 'agent',
      agentId: id,
      generation: refresh.generation,
    });
  }
  if (agent.budget > 0 && agent.tokens > agent.budget * FLAG_THRESHOLDS.overBudget) {
    add('overBudget', `Over budget: ${tokens(agent.tokens)} tokens in context, more than its ${budgetText('engine', agent.budget)} (pinned and mandatory items are never clipped)`, {
      view: 'agent',
      agentId: id,
      generation: null,
    });
  }
  const prompt = agent.usage.input + agent.usage.cacheRead + agent.usage.cacheWrite;
  if (prompt >= FLAG_THRESHOLDS.lowHitRateMinPromptTokens && agent.cacheHitRate < FLAG_THRESHOLDS.lowHitRate) {
    add('lowHitRate', `Low hit rate: ${percent(agent.cacheHitRate)} of ${tokens(prompt)} prompt tokens read from the cache, below ${percent(FLAG_THRESHOLDS.lowHitRate)}`, { view: 'charts', agentId: id });
  }
  const quiet = facts.now - Date.parse(agent.updatedAt);
  // An attached session's agent is not the run's: its own file's activity sets its status (running, waiting, done).
  if (facts.runRunning && agent.sessionId === undefined && agent.status === 'running' && quiet >= FLAG_THRESHOLDS.stalledMs) {
    add('stalled', `Stalled: running, but no change for ${seconds(quiet)} (${seconds(FLAG_THRESHOLDS.stalledMs)} or more while the run runs)`, { view: 'events', agentId: id, kinds: ['turn', 'error'] });
  }
  return flags;
}

/** The tooltip of a row's flags: one line per flag. */
export const flagsTitle = (flags: readonly AgentFlag[]): string => flags.map((f) => f.detail).join('\n');

/** A key that changes exactly when the shown flags change (rows re-render on it, not on every call). */
export const flagsKey = (flags: readonly AgentFlag[]): string => flags.map((f) => `${f.kind}:${f.detail}`).join('|');

/** Whether the run the bar controls is running (stalled agents are counted only then). */
export const selectRunRunning = (s: RootState): boolean => selectActiveRun(s)?.status === 'running';
