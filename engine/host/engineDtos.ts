import { generationOverflow, generationTokens } from '../generations/Generation';
import type { GenerationDiffDto, GenerationDto, GenerationSummaryDto, IncludedDto, ItemDto } from '../contract';
import type { GenerationDiff } from '../generations/diffGenerations';
import type { Generation, IncludedEntry } from '../generations/Generation';
import type { ContextItem } from '../items/ContextItem';
import type { PromptLayers } from '../prompt/composeParts';

/** The contract form of an item (plain copies of the frozen engine value). */
export function toItemDto(item: ContextItem): ItemDto {
  const p = item.provenance;
  return {
    id: item.id,
    kind: item.kind,
    class: item.class,
    title: item.title,
    content: item.content,
    contentHash: item.contentHash,
    provenance: { ...p, files: [...p.files], symbols: [...p.symbols] },
    pinned: item.pinned,
    mandatory: item.mandatory,
    phase: item.phase ?? null,
  };
}

const toIncluded = (e: IncludedEntry): IncludedDto => ({ item: toItemDto(e.item), layer: e.layer, tokens: e.tokens, score: e.score, tier: e.tier, why: e.why });

export function toGenerationSummary(g: Generation): GenerationSummaryDto {
  return {
    agentId: g.agentId,
    number: g.number,
    phase: g.phase,
    strategy: g.strategy,
    budget: g.budget,
    tokens: generationTokens(g),
    overflow: generationOverflow(g),
    boundary: { ...g.boundary },
    builds: g.builds,
    prefixHash: g.prefixHash,
    startedAt: g.startedAt,
    // A released generation's entries may be read back from the catalog; its counts are exact either way.
    counts: { included: g.released?.included ?? g.included.length, dropped: g.droppedTotal, compressed: g.released?.compressed ?? g.compressed.length },
  };
}

export function toGenerationDto(g: Generation, droppedLimit: number, prompt: (PromptLayers & { prefixHash: string }) | null): GenerationDto {
  return {
    ...toGenerationSummary(g),
    layerTokens: { ...g.layerTokens },
    included: g.included.map(toIncluded),
    dropped: g.dropped.slice(0, droppedLimit).map((d) => ({ item: toItemDto(d.item), tokens: d.tokens, reason: d.reason })),
    compressed: g.compressed.map((c) => ({ ...c })),
    indicators: { ...g.indicators, fired: [...g.indicators.fired] },
    prompt,
  };
}

export function toGenerationDiffDto(d: GenerationDiff): GenerationDiffDto {
  return {
    agentId: d.agentId,
    from: d.from,
    to: d.to,
    added: d.added.map(toIncluded),
    dropped: d.dropped.map((x) => ({ entry: toIncluded(x.entry), reason: x.reason })),
    compressed: d.compressed.map((c) => ({ ...c })),
    kept: d.kept.map(toIncluded),
    tokenDelta: d.tokenDelta,
    reason: d.reason,
  };
}
