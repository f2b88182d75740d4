import type { AgentDto } from '../../engine/contract';
import type { Action } from './actions';

export interface AgentsState {
  byId: Record<string, AgentDto>;
  /** Ids in the host's order (parents before children). */
  order: string[];
}

export const agentsInitialState: AgentsState = { byId: {}, order: [] };

const isNewer = (incoming: AgentDto, known: AgentDto | undefined) => !known || incoming.revision >= known.revision;

/**
 * Agents by id. An update older than what the slice holds (lower `revision`) is ignored, so a
 * snapshot that crossed a live event on the wire never rolls an agent back.
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
    case 'event':
      return action.event.name === 'agent.updated' ? upsert(state, action.event.payload.agent) : state;
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
