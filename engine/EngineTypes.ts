import type { Generation } from './generations/Generation';
import type { PromptParts } from './prompt/composeParts';
import type { Clock } from './ports/Clock';
import type { Tokenizer } from './tokens/Tokenizer';

/** How an Engine is made: the tokenizer its budgets count with, the clock, and its packing knobs. */
export interface EngineOptions {
  tokenizer: Tokenizer;
  clock?: Clock;
  /** Let indicators refresh a context (off by default; see `autoRefreshDue`). */
  autoRefresh?: boolean;
  /** Optional (tier 4) material scoring below this is left out. */
  minOptionalScore?: number;
  /** Compress a tier 1-3 item that does not fit whole only when this many tokens remain. */
  compressMinTokens?: number;
}

/** What an agent is working on at this turn. */
export interface BuildRequest {
  phase: string;
  files?: string[];
  symbols?: string[];
  keywords?: string[];
  failures?: string[];
  /** The volatile input of this turn (L3). */
  input?: string;
}

/** One build's answer: a snapshot of the generation (later builds do not change it) and the prompt sent. */
export interface BuildResult {
  generation: Generation;
  prompt: PromptParts;
  /** The whole prompt, static then dynamic. */
  text: string;
  /** Prefix reuse against this agent's previous prompt (0 for its first). */
  reuse: number;
  /** True when this build began a new generation. */
  started: boolean;
}

/** One recalled memory entry as the engine takes it (rendered by the memory module). */
export interface RecalledEntry {
  memoryId: string;
  /** Who made the observation (the recipient is recorded as the item's agent). */
  author?: string;
  text: string;
  observedAt: number;
  confidence: number;
  paths: string[];
}

/** What a refresh did (`[refresh-pipeline]`): the generations it went between, what it kept and dropped, and the build. */
export interface RefreshResult {
  from: number;
  to: number;
  reason: string;
  text: string;
  /** Findings of the agent that carried over (persisted in the pool). */
  persistedFindings: string[];
  /** Ephemeral and history items of the agent removed from the pool (kept in the archive). */
  droppedItems: string[];
  result: BuildResult;
}
