import { z } from 'zod';

/**
 * DTOs of the context engine as the control room sees them: items with provenance, generations
 * with their included, dropped and compressed entries, and diffs. Plain data, as everything that
 * crosses the contract.
 */
const InfoClassSchema = z.enum(['ephemeral', 'task_state', 'finding', 'project_memory', 'raw_history']);
const SourceSchema = z.enum([
  'user_requirement',
  'verified_fact',
  'worker_finding',
  'unverified_hypothesis',
  'generated_summary',
  'test_result',
  'repository_source',
  'parent_report',
  'recalled_memory',
]);
const DurabilitySchema = z.enum(['transient', 'phase', 'task', 'project']);

const ProvenanceDtoSchema = z.object({
  source: SourceSchema,
  agentId: z.string(),
  taskId: z.string(),
  /** Milliseconds since the epoch. */
  at: z.number(),
  confidence: z.number().min(0).max(1),
  relevance: z.number().min(0).max(1),
  durability: DurabilitySchema,
  verified: z.boolean(),
  files: z.array(z.string()),
  symbols: z.array(z.string()),
});

export const ItemDtoSchema = z.object({
  id: z.string(),
  kind: z.string(),
  class: InfoClassSchema,
  title: z.string(),
  content: z.string(),
  contentHash: z.string(),
  provenance: ProvenanceDtoSchema,
  pinned: z.boolean(),
  mandatory: z.boolean(),
  phase: z.string().nullable(),
});
export type ItemDto = z.infer<typeof ItemDtoSchema>;

const LayerSchema = z.enum(['L0', 'L1', 'L2', 'L3']);

const IncludedDtoSchema = z.object({
  item: ItemDtoSchema,
  layer: LayerSchema,
  tokens: z.number().int().nonnegative(),
  score: z.number(),
  tier: z.number().int().min(1).max(4),
  why: z.string(),
});
export type IncludedDto = z.infer<typeof IncludedDtoSchema>;

const DroppedDtoSchema = z.object({ item: ItemDtoSchema, tokens: z.number().int().nonnegative(), reason: z.string().min(1) });
export type DroppedDto = z.infer<typeof DroppedDtoSchema>;

const CompressedDtoSchema = z.object({
  itemId: z.string(),
  from: z.number().int().nonnegative(),
  to: z.number().int().nonnegative(),
  method: z.enum(['clip', 'extract']),
});

export const BoundaryDtoSchema = z.object({ kind: z.enum(['start', 'rebuild', 'refresh']), reason: z.string() });

const IndicatorsDtoSchema = z.object({
  utilization: z.number(),
  repeatedToolSignatures: z.number(),
  repeatedFailedEdits: z.number(),
  stalledBuilds: z.number(),
  obsoletePhaseShare: z.number(),
  transcriptShare: z.number(),
  fired: z.array(z.string()),
});

export const GenerationSummaryDtoSchema = z.object({
  agentId: z.string(),
  number: z.number().int().positive(),
  phase: z.string(),
  strategy: z.string(),
  budget: z.number().int().positive(),
  tokens: z.number().int().nonnegative(),
  /** Tokens over the budget forced by pinned/mandatory content; 0 when it fits. */
  overflow: z.number().int().nonnegative(),
  boundary: BoundaryDtoSchema,
  builds: z.number().int().nonnegative(),
  prefixHash: z.string(),
  startedAt: z.number(),
  counts: z.object({ included: z.number().int(), dropped: z.number().int(), compressed: z.number().int() }),
});
export type GenerationSummaryDto = z.infer<typeof GenerationSummaryDtoSchema>;

const PromptDtoSchema = z.object({ L0: z.string(), L1: z.string(), L2: z.string(), L3: z.string(), prefixHash: z.string() });

export const GenerationDtoSchema = GenerationSummaryDtoSchema.extend({
  layerTokens: z.object({ L0: z.number(), L1: z.number(), L2: z.number(), L3: z.number() }),
  included: z.array(IncludedDtoSchema),
  /** The first `droppedLimit` dropped entries; `counts.dropped` has the total. */
  dropped: z.array(DroppedDtoSchema),
  compressed: z.array(CompressedDtoSchema),
  indicators: IndicatorsDtoSchema,
  /** The composed prompt of the latest build; only for the agent's current generation. */
  prompt: PromptDtoSchema.nullable(),
  /** Ids of the items listed here (included or dropped) that the pool no longer holds; absent when none. */
  absent: z.array(z.string()).optional(),
});
export type GenerationDto = z.infer<typeof GenerationDtoSchema>;

export const GenerationDiffDtoSchema = z.object({
  agentId: z.string(),
  from: z.number().int(),
  to: z.number().int(),
  added: z.array(IncludedDtoSchema),
  dropped: z.array(z.object({ entry: IncludedDtoSchema, reason: z.string() })),
  compressed: z.array(CompressedDtoSchema),
  kept: z.array(IncludedDtoSchema),
  tokenDelta: z.number().int(),
  reason: z.string(),
});
export type GenerationDiffDto = z.infer<typeof GenerationDiffDtoSchema>;

export const ItemControlSchema = z.enum(['remove', 'pin', 'unpin', 'verify', 'promote']);
export type ItemControl = z.infer<typeof ItemControlSchema>;

/** What one agent's cached prompt loses when an item changes (`[change-preview]`). */
export const AgentImpactDtoSchema = z.object({
  agentId: z.string(),
  generation: z.number().int().positive(),
  /** Where the agent's current generation holds the item; null when it does not. */
  layer: z.enum(['L1', 'L2']).nullable(),
  /** `next build`: a new generation is forced at its next build; `next boundary`: shown when its next generation begins. */
  when: z.enum(['next build', 'next boundary']),
  promptTokens: z.number().int().nonnegative(),
  /** Tokens of its latest prompt past the first byte the change alters: what the provider's cache stops serving. */
  lostTokens: z.number().int().nonnegative(),
});
export type AgentImpactDto = z.infer<typeof AgentImpactDtoSchema>;

export const ItemChangeSchema = z.enum(['added', 'pinned', 'unpinned', 'verified', 'promoted', 'removed']);
