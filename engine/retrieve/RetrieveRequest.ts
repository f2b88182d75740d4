import type { AgentRole } from '../contract';

/**
 * What an agent is working on, the query side of retrieval (spec "Retrieval":
 * Retrieve(task, files, symbols, keywords, role, phase, failures)).
 */
export interface RetrieveRequest {
  /** The agent's task id; items of this task score higher. */
  taskId: string;
  /** The task text; its words count as keywords. */
  task: string;
  files: string[];
  symbols: string[];
  keywords: string[];
  role: AgentRole;
  phase: string;
  /** Signatures or messages of recent failures; items that mention them score higher. */
  failures: string[];
  /** Milliseconds since the epoch, for recency. */
  now: number;
}
