import type { Action } from './actions';
import { type AgentsState, agentsInitialState, reduceAgents } from './agents/agentsSlice';
import { type ComparisonsState, comparisonsInitialState, reduceComparisons } from './comparisons/comparisonsSlice';
import { type ConnectionState, connectionInitialState, reduceConnection } from './connection/connectionSlice';
import { type ControlsState, controlsInitialState, reduceControls } from './controls/controlsSlice';
import { type EventsState, eventsInitialState, reduceEvents } from './events/eventsSlice';
import { type GatewayState, gatewayInitialState, reduceGateway } from './gateway/gatewaySlice';
import { type GenerationsState, generationsInitialState, reduceGenerations } from './generations/generationsSlice';
import { type LogState, logInitialState, reduceLog } from './log/logSlice';
import { type MemoryState, memoryInitialState, reduceMemory } from './memory/memorySlice';
import { type RunsState, reduceRuns, runOf, runsInitialState, startsNewRun } from './runs/runsSlice';
import { type SessionsState, reduceSessions, sessionsInitialState } from './sessions/sessionsSlice';
import { type SkillsState, reduceSkills, skillsInitialState } from './skills/skillsSlice';
import { type TracesState, reduceTraces, tracesInitialState } from './traces/tracesSlice';
import { type UiState, reduceUi, uiInitialState } from './ui/uiSlice';
import { type UsageState, reduceUsage, usageInitialState } from './usage/usageSlice';

export interface RootState {
  agents: AgentsState;
  log: LogState;
  ui: UiState;
  connection: ConnectionState;
  generations: GenerationsState;
  runs: RunsState;
  controls: ControlsState;
  usage: UsageState;
  events: EventsState;
  traces: TracesState;
  comparisons: ComparisonsState;
  memory: MemoryState;
  skills: SkillsState;
  sessions: SessionsState;
  gateway: GatewayState;
}

export const initialRootState: RootState = {
  agents: agentsInitialState,
  log: logInitialState,
  ui: uiInitialState,
  connection: connectionInitialState,
  generations: generationsInitialState,
  runs: runsInitialState,
  controls: controlsInitialState,
  usage: usageInitialState,
  events: eventsInitialState,
  traces: tracesInitialState,
  comparisons: comparisonsInitialState,
  memory: memoryInitialState,
  skills: skillsInitialState,
  sessions: sessionsInitialState,
  gateway: gatewayInitialState,
};

/** The one pure reducer: every slice sees every action; untouched slices keep their identity. */
export function reduce(state: RootState, action: Action): RootState {
  if (action.type === 'events') return action.events.reduce((s, event) => reduce(s, { type: 'event', event }), state);
  const next: RootState = {
    agents: reduceAgents(state.agents, action),
    log: reduceLog(state.log, action),
    ui: reduceUi(state.ui, action),
    connection: reduceConnection(state.connection, action),
    generations: reduceGenerations(state.generations, action),
    runs: reduceRuns(state.runs, action),
    controls: reduceControls(state.controls, action),
    usage: reduceUsage(state.usage, action),
    events: reduceEvents(state.events, action),
    traces: reduceTraces(state.traces, action),
    comparisons: reduceComparisons(state.comparisons, action),
    memory: reduceMemory(state.memory, action),
    skills: reduceSkills(state.skills, action),
    sessions: reduceSessions(state.sessions, action),
    gateway: reduceGateway(state.gateway, action),
  };
  const reduced = (Object.keys(next) as (keyof RootState)[]).every((k) => next[k] === state[k]) ? state : next;
  // A new run reuses the ids of the run before: every slice forgets that run's agents (`[run-follow]`).
  const begun = beginsRun(state, action);
  if (begun) return reduce(reduced, begun);
  // Every slice forgets what it held of the selected agent, as when the operator deselects.
  return selectsDetachedAgent(state, action) ? reduce(reduced, { type: 'agent.select', agentId: null }) : reduced;
}

/**
 * True when `action` detaches the session the selected agent belongs to: its agents leave the tree
 * (the agents slice drops them), so the selection goes with them. Checked against the state before
 * the action, while the agent is still known; the session's main agent id is its session id, which
 * also covers a main agent selected before its first `agent.updated` arrived.
 */
function selectsDetachedAgent(state: RootState, action: Action): boolean {
  if (action.type !== 'event' || action.event.name !== 'session.detached') return false;
  const selected = state.ui.selectedAgentId;
  const { sessionId } = action.event.payload;
  return selected !== null && (selected === sessionId || state.agents.byId[selected]?.sessionId === sessionId);
}

/**
 * The `run.begun` that follows `action` when it showed a new run starting, naming the agents of the
 * run before (every agent but those of attached sessions, which no run owns); checked against the
 * state before the action.
 */
function beginsRun(state: RootState, action: Action): Action | undefined {
  const run = runOf(action);
  if (!run || !startsNewRun(state.runs, run)) return undefined;
  const agentIds = state.agents.order.filter((id) => state.agents.byId[id]?.sessionId === undefined);
  return { type: 'run.begun', run, agentIds };
}
