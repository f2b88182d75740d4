import type { AbortSignalLike } from '../ports/AbortSignalLike';
import type { ToolCall } from '../conversation/Message';
import type { AgentIdentity } from '../generations/AgentIdentity';
import type { ProviderRequest, ToolSpec, Usage } from '../providers/Provider';
import type { AgentRole } from '../contract';

/**
 * What drives an agent's turns: a model through a provider, or a recording replayed (the demo and
 * the comparison work). The runtime composes the request either way, so a replayed turn is priced
 * and measured exactly like a live one; only where the answer comes from differs.
 */

/** The result of one tool call, as the model will read it. */
export interface ToolOutcome {
  callId: string;
  content: string;
  isError: boolean;
}

/** A child agent the acting agent asks for (the primary delegates to workers, probes and reviewers). */
export interface SpawnRequest {
  agentId: string;
  role: AgentRole;
  task: string;
  /** Agents that must be done before this one starts. */
  dependsOn?: string[];
  model?: string;
  budget?: number;
}

/** A finding the agent states (it becomes a `finding` item with the agent's provenance). */
export interface StatedFinding {
  title: string;
  content: string;
  files?: string[];
}

/** What an agent did in one turn. */
export interface AgentAction {
  text: string;
  toolCalls: ToolCall[];
  /** Results of the calls when the driver has them (a recording); otherwise the runtime runs the tools. */
  results?: ToolOutcome[];
  /** Provider usage, authoritative; absent for a replay, which the cache model prices instead. */
  usage?: Usage;
  /** The model that answered, when known. */
  model?: string;
  /** HTTP retries the provider needed for this answer (`[provider-retries-counted]`). */
  providerRetries?: number;
  spawn?: SpawnRequest[];
  findings?: StatedFinding[];
  /** The agent finished its task; its transcript becomes a report to its parent. */
  done?: boolean;
}

/** Everything a driver may look at for one turn. */
export interface TurnContext {
  agent: AgentIdentity;
  /** 1-based turn number of this agent. */
  turn: number;
  generation: number;
  request: ProviderRequest;
  signal: AbortSignalLike;
}

export interface Driver {
  readonly kind: 'model' | 'trace';
  /** Tools the model may call (empty for a replay). */
  readonly tools: ToolSpec[];
  /** One turn. A provider context-limit error is thrown as `ContextLimitError`; the runtime refreshes and retries. */
  act(context: TurnContext): Promise<AgentAction>;
}

/** Runs tool calls inside the agent's workspace; never throws (a bad call is an error result). */
export interface ToolBox {
  readonly specs: ToolSpec[];
  call(call: ToolCall, context: { agentId: string; signal: AbortSignalLike }): Promise<ToolOutcome>;
}
