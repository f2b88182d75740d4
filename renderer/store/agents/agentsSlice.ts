import type { AgentDto } from '../../../engine/contract';
import type { Action } from '../actions';

export interface AgentsState {
  byId: Record<string, AgentDto>;
  /** Ids in the host's order (parents before children). */
  order: string[];
}

export const agentsInitialState: AgentsState = { byId: {}, order: [] };

const isNewer = (incoming: AgentDto, known: AgentDto | undefined) => !known || incoming.revision >= known.revision;

/**
 * Agents by id. An update older than what the slice holds (lower `revision`) is ignored, so a
 * snapshot that crossed a live event on the wire never rolls an agent back. The host sends no
 * removal per agent when a session is detached: `session.detached` drops all of that session's agents,
 * and none when a new run begins: `run.begun` drops the agents of the run before.
 */
export function reduceAgents(state: AgentsState, action: Action): AgentsState {
  switch (action.type) {
    case 'agents.snapshot': {
      const byId: Record<string, AgentDto> = {};
      for (const a of action.agents) byId[a.agentId] = isNewer(a, state.byId[a.agentId]) ? a : (state.byId[a.agentId] as AgentDto);
      return { byId, order: action.agents.map((a) => a.agentId) };
    }
    case 'agent.detail':
      return upsert(state, action.detail.agent);
    case 'run.begun':
      return drop(state, new Set(action.agentIds));
    case 'event':
      if (action.event.name === 'agent.updated') return upsert(state, action.event.payload.agent);
      if (action.event.name === 'session.detached') return dropSession(state, action.event.payload.sessionId);
      return state;
    default:
      return state;
  }
}

function upsert(state: AgentsState, agent: AgentDto): AgentsState {
  const known = state.byId[agent.agentId];
  if (!isNewer(agent, known)) return state;
  return {
    byId: { ...state.byId, [agent.agentId]: agent },
    order: known ? state.order : [...state.order, agent.agentId],
  };
}

/** The state without the agents of session `sessionId` (the same state when it had none). */
export function dropSession(state: AgentsState, sessionId: string): AgentsState {
  return drop(state, new Set(state.order.filter((id) => state.byId[id]?.sessionId === sessionId)));
}

/** The state without the agents in `gone` (the same state when it held none of them). */
function drop(state: AgentsState, gone: Set<string>): AgentsState {
  if (!state.order.some((id) => gone.has(id))) return state;
  const byId: Record<string, AgentDto> = {};
  for (const [id, a] of Object.entries(state.byId)) if (!gone.has(id)) byId[id] = a;
  return { byId, order: state.order.filter((id) => !gone.has(id)) };
}
