/**
 * The unit the engine packs: a piece of content with its class, its provenance and its flags.
 * Items are immutable values; the Engine replaces an item to change it (pin, verify, ...).
 */

/** How an item survives a refresh (spec "Information classes"). */
export type InfoClass = 'ephemeral' | 'task_state' | 'finding' | 'project_memory' | 'raw_history';

/** Where an item came from. The nine sources stay distinct: none is ever rewritten into another. */
export type Source =
  | 'user_requirement'
  | 'verified_fact'
  | 'worker_finding'
  | 'unverified_hypothesis'
  | 'generated_summary'
  | 'test_result'
  | 'repository_source'
  | 'parent_report'
  | 'recalled_memory';

/** How long the content stays true, from shortest to longest. Orders L2 (most durable first). */
export type Durability = 'transient' | 'phase' | 'task' | 'project';

/**
 * What the content is, which decides its priority tier and its prompt layer:
 * objective/task/acceptance/constraint are tier 1 and L1; code, failures and findings tier 2;
 * architecture and reports tier 3; the rest tier 4.
 */
export type ItemKind =
  | 'objective'
  | 'task'
  | 'acceptance'
  | 'constraint'
  | 'code'
  | 'failure'
  | 'finding'
  | 'decision'
  | 'architecture'
  | 'report'
  | 'tool_output'
  | 'transcript'
  | 'note'
  | 'input';

export interface Provenance {
  source: Source;
  /** Agent that produced the item (the user's items carry the receiving agent or "user"). */
  agentId: string;
  taskId: string;
  /** Milliseconds since the epoch. */
  at: number;
  /** 0..1: how sure the producer is. */
  confidence: number;
  /** 0..1: the producer's prior on how relevant it is to its task. */
  relevance: number;
  durability: Durability;
  /** True only after an explicit verify. */
  verified: boolean;
  files: string[];
  symbols: string[];
}

export interface ContextItem {
  /** Stable identity; verify and pin act on exactly this id. */
  id: string;
  kind: ItemKind;
  class: InfoClass;
  /** Short label for the inspector and the rendered prompt. */
  title: string;
  content: string;
  /** Hash of `content` (hex); memoizes token counts and orders L2. */
  contentHash: string;
  provenance: Provenance;
  /** Pinned by a user: never clipped, never dropped, rendered in L1. */
  pinned: boolean;
  /** Required by the task (objective, acceptance): never clipped, never dropped. */
  mandatory: boolean;
  /** The phase the item belongs to (e.g. "explore", "implement", "verify"), if any. */
  phase?: string;
  /** Signature of the action that produced it (tool name + arguments), for repeated-action indicators. */
  signature?: string;
  /** Only this agent may receive it (recalled memory is chosen per recipient); absent: anyone. */
  audience?: string;
}
