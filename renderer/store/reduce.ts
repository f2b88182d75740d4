import type { Action } from './actions';
import { type AgentsState, agentsInitialState, reduceAgents } from './agentsSlice';
import { type ConnectionState, connectionInitialState, reduceConnection } from './connectionSlice';
import { type LogState, logInitialState, reduceLog } from './logSlice';
import { type UiState, reduceUi, uiInitialState } from './uiSlice';
import { type GenerationsState, generationsInitialState, reduceGenerations } from './generationsSlice';
import { type RunsState, reduceRuns, runsInitialState } from './runsSlice';
import { type ControlsState, controlsInitialState, reduceControls } from './controlsSlice';
import { type UsageState, reduceUsage, usageInitialState } from './usageSlice';
import { type EventsState, eventsInitialState, reduceEvents } from './eventsSlice';
import { type TracesState, reduceTraces, tracesInitialState } from './tracesSlice';
import { type ComparisonsState, comparisonsInitialState, reduceComparisons } from './comparisonsSlice';
import { type MemoryState, memoryInitialState, reduceMemory } from './memorySlice';
import { type SkillsState, reduceSkills, skillsInitialState } from './skillsSlice';

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
  };
  return (Object.keys(next) as (keyof RootState)[]).every((k) => next[k] === state[k]) ? state : next;
}
