import type { AgentRole } from '../contract';
import type { Scope } from '../pack/Scope';

/**
 * Who an agent is; survives every generation change (spec "Context generations": agent_id,
 * parent, role, task, scope, model, workspace, budget).
 */
export interface AgentIdentity {
  agentId: string;
  parent: string | null;
  role: AgentRole;
  taskId: string;
  task: string;
  scope: Scope;
  model: string;
  workspace: string;
  /** The agent's token budget: what it is given, not the model's window. */
  budget: number;
}
