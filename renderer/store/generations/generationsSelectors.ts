import type { GenerationDto, GenerationSummaryDto, IncludedDto } from '../../../engine/contract';
import type { RootState } from '../reduce';
import { refreshLine, type GenerationsState } from './generationsSlice';

export const LAYERS = ['L0', 'L1', 'L2', 'L3'] as const;
export type LayerName = (typeof LAYERS)[number];
const CLASSES = ['task_state', 'finding', 'project_memory', 'ephemeral', 'raw_history'] as const;

export const selectGenerationList = (s: RootState): GenerationsState['list'] => s.generations.list;
export const selectGenerationDetail = (s: RootState): GenerationsState['detail'] => s.generations.detail;
export const selectViewedNumber = (s: RootState): number | null => s.generations.viewed;
export const selectDiffPick = (s: RootState): GenerationsState['diffPick'] => s.generations.diffPick;
export const selectDiff = (s: RootState): GenerationsState['diff'] => s.generations.diff;
export const selectRemovedItems = (s: RootState): Record<string, true> => s.generations.removed;

/** One block of the stacked layer bar. */
export interface LayerShare {
  layer: LayerName;
  tokens: number;
  /** Share of the budget (or of the total when over budget), 0..1. */
  share: number;
  items: number;
}

/** The four layers as shares of max(budget, tokens), so an overflowing context still fits the bar. */
export function layerShares(g: Pick<GenerationDto, 'layerTokens' | 'budget' | 'tokens' | 'included'>): LayerShare[] {
  const total = LAYERS.reduce((n, l) => n + g.layerTokens[l], 0);
  const scale = Math.max(g.budget, total, 1);
  return LAYERS.map((layer) => ({ layer, tokens: g.layerTokens[layer], share: g.layerTokens[layer] / scale, items: g.included.filter((e) => e.layer === layer).length }));
}

/** Tokens per information class: included and dropped (chart rows, classes with nothing left out). */
export interface ClassComposition {
  class: string;
  included: number;
  dropped: number;
}

export function compositionByClass(g: Pick<GenerationDto, 'included' | 'dropped'>): ClassComposition[] {
  const rows = new Map<string, ClassComposition>(CLASSES.map((c) => [c, { class: c, included: 0, dropped: 0 }]));
  for (const e of g.included) (rows.get(e.item.class) as ClassComposition).included += e.tokens;
  for (const d of g.dropped) (rows.get(d.item.class) as ClassComposition).dropped += d.tokens;
  return [...rows.values()].filter((r) => r.included > 0 || r.dropped > 0);
}

/** Included entries grouped by layer, in layer order, each group in the engine's order. */
export function includedByLayer(g: Pick<GenerationDto, 'included'>): Record<LayerName, IncludedDto[]> {
  const out: Record<LayerName, IncludedDto[]> = { L0: [], L1: [], L2: [], L3: [] };
  for (const e of g.included) out[e.layer].push(e);
  return out;
}

/** A line of the generations timeline. */
export interface TimelineEntry {
  generation: number;
  kind: 'start' | 'rebuild' | 'refresh';
  reason: string;
  /** The host's announcement, or the same line written here for a generation loaded from the list. */
  text: string;
  startedAt: number | null;
  tokens: number | null;
  budget: number | null;
}

/** Every generation of the agent, oldest first: from the list, plus any the host announced since. */
export const selectTimeline = memoizeOne(
  (s: RootState) => [s.generations.list.value, s.generations.notes] as [GenerationSummaryDto[], GenerationsState['notes']],
  (list: GenerationSummaryDto[], notes: GenerationsState['notes']): TimelineEntry[] => {
    const byNumber = new Map<number, TimelineEntry>();
    for (const g of list) {
      const note = notes[g.number];
      byNumber.set(g.number, {
        generation: g.number,
        kind: g.boundary.kind,
        reason: g.boundary.reason,
        text: note?.text ?? (g.number > 1 ? refreshLine(g.number - 1, g.number, g.boundary.reason) : `Generation 1 · ${g.boundary.reason}`),
        startedAt: g.startedAt,
        tokens: g.tokens,
        budget: g.budget,
      });
    }
    for (const n of Object.values(notes)) {
      if (!byNumber.has(n.generation)) byNumber.set(n.generation, { generation: n.generation, kind: n.kind, reason: n.reason, text: n.text, startedAt: null, tokens: null, budget: null });
    }
    return [...byNumber.values()].sort((a, b) => a.generation - b.generation);
  },
);

/** Generation numbers the pickers offer: the listed ones and any announced since, newest first. */
export const selectGenerationNumbers = memoizeOne(
  (s: RootState) => [s.generations.list.value, s.generations.notes] as [GenerationSummaryDto[], GenerationsState['notes']],
  (list: GenerationSummaryDto[], notes: GenerationsState['notes']): number[] =>
    [...new Set([...list.map((g) => g.number), ...Object.keys(notes).map(Number)])].sort((a, b) => b - a),
);

function memoizeOne<I extends readonly unknown[], R>(inputs: (s: RootState) => I, compute: (...args: I) => R): (s: RootState) => R {
  let last: { args: I; result: R } | undefined;
  return (s) => {
    const args = inputs(s);
    if (last && args.every((a, i) => a === last?.args[i])) return last.result;
    const result = compute(...args);
    last = { args, result };
    return result;
  };
}
