import { contentHash } from '../text/hash';
import type { ContextItem, Durability, InfoClass, ItemKind, Provenance, Source } from './ContextItem';

/** What a producer supplies; everything else has a safe default. */
export interface ItemInput {
  id: string;
  kind: ItemKind;
  class: InfoClass;
  title?: string;
  content: string;
  source: Source;
  agentId: string;
  taskId: string;
  at: number;
  confidence?: number;
  relevance?: number;
  durability?: Durability;
  files?: string[];
  symbols?: string[];
  pinned?: boolean;
  mandatory?: boolean;
  phase?: string;
  signature?: string;
  audience?: string;
}

const clamp01 = (n: number) => (Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0);

const defaultDurability: Record<InfoClass, Durability> = {
  ephemeral: 'transient',
  raw_history: 'transient',
  task_state: 'task',
  finding: 'task',
  project_memory: 'project',
};

/**
 * Build an item with its content hash. `[verify-explicit]`: every item starts unverified, whatever
 * its source claims; only `Engine.verify` sets `verified`. A `verified_fact` source is the one
 * exception, because the user (or a check) asserted it as such when it entered.
 */
export function createItem(input: ItemInput): ContextItem {
  const provenance: Provenance = {
    source: input.source,
    agentId: input.agentId,
    taskId: input.taskId,
    at: input.at,
    confidence: clamp01(input.confidence ?? 0.5),
    relevance: clamp01(input.relevance ?? 0.5),
    durability: input.durability ?? defaultDurability[input.class],
    verified: input.source === 'verified_fact',
    files: [...new Set(input.files ?? [])],
    symbols: [...new Set(input.symbols ?? [])],
  };
  const item: ContextItem = {
    id: input.id,
    kind: input.kind,
    class: input.class,
    title: input.title ?? input.kind,
    content: input.content,
    contentHash: contentHash(input.content),
    provenance,
    pinned: input.pinned ?? false,
    mandatory: input.mandatory ?? false,
  };
  if (input.phase !== undefined) item.phase = input.phase;
  if (input.signature !== undefined) item.signature = input.signature;
  if (input.audience !== undefined) item.audience = input.audience;
  return freezeItem(item);
}

/**
 * Items are immutable values (`[one-boundary]`): frozen down to their provenance lists, so no
 * holder of an item can change what the engine packs. A change is a new item.
 */
export function freezeItem(item: ContextItem): ContextItem {
  Object.freeze(item.provenance.files);
  Object.freeze(item.provenance.symbols);
  Object.freeze(item.provenance);
  return Object.freeze(item);
}
