import type { AgentDetailDto, AgentDto } from '../../../engine/contract';

/** Actions of the agents slice: the `listAgents` snapshot and one agent's `getAgent` detail (its log backlog feeds the log and events slices too). */
export type AgentsAction = { type: 'agents.snapshot'; agents: AgentDto[] } | { type: 'agent.detail'; detail: AgentDetailDto };
