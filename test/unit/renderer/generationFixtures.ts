import type { GenerationDiffDto, GenerationDto, GenerationSummaryDto, IncludedDto, ItemDto, RunDto, StrataEvent } from '../../../engine/contract';

/** A valid pool item; tests override only what they are about. */
export function makeItem(id: string, over: Partial<ItemDto> = {}): ItemDto {
  return {
    id,
    kind: 'note',
    class: 'finding',
    title: `Title of ${id}`,
    content: `content of ${id}`,
    contentHash: `hash-${id}`,
    provenance: { source: 'worker_finding', agentId: 'auth-1', taskId: 'task:auth', at: Date.UTC(2026, 0, 5, 9, 20), confidence: 0.8, relevance: 0.5, durability: 'task', verified: false, files: ['src/a.ts'], symbols: ['issueToken'] },
    pinned: false,
    mandatory: false,
    phase: null,
    ...over,
  };
}

export function makeIncluded(item: ItemDto, over: Partial<IncludedDto> = {}): IncludedDto {
  return { item, layer: 'L2', tokens: 100, score: 0.5, tier: 2, why: `relevant to the task (${item.id})`, ...over };
}

export function makeSummary(agentId: string, number: number, over: Partial<GenerationSummaryDto> = {}): GenerationSummaryDto {
  return {
    agentId,
    number,
    phase: 'plan',
    strategy: 'variable',
    budget: 1_000,
    tokens: 500,
    overflow: 0,
    boundary: number === 1 ? { kind: 'start', reason: 'first build' } : { kind: 'refresh', reason: 'context limit' },
    builds: 1,
    prefixHash: 'ab'.repeat(32),
    startedAt: Date.UTC(2026, 0, 5, 9, number),
    counts: { included: 0, dropped: 0, compressed: 0 },
    ...over,
  };
}

/** A generation with a pinned constraint in L1, two findings in L2, one dropped and one compressed item. */
export function makeGeneration(agentId: string, number: number, over: Partial<GenerationDto> = {}): GenerationDto {
  const constraint = makeIncluded(makeItem('constraint:a', { class: 'task_state', kind: 'constraint', title: 'Constraint A', pinned: true, provenance: { ...makeItem('x').provenance, source: 'user_requirement', agentId: 'user', verified: true } }), { layer: 'L1', tokens: 40, tier: 1, why: 'pinned constraint' });
  const f1 = makeIncluded(makeItem('finding:1'), { tokens: 300, score: 0.91 });
  const f2 = makeIncluded(makeItem('finding:2', { class: 'ephemeral', provenance: { ...makeItem('y').provenance, source: 'test_result' } }), { tokens: 120 });
  return {
    ...makeSummary(agentId, number, { counts: { included: 3, dropped: 1, compressed: 1 } }),
    layerTokens: { L0: 50, L1: 40, L2: 420, L3: 10 },
    tokens: 520,
    included: [constraint, f1, f2],
    dropped: [{ item: makeItem('old:1', { title: 'Old log' }), tokens: 800, reason: 'over budget at tier 4' }],
    compressed: [{ itemId: 'finding:1', from: 900, to: 300, method: 'clip' }],
    indicators: { utilization: 0.52, repeatedToolSignatures: 0, repeatedFailedEdits: 0, stalledBuilds: 0, obsoletePhaseShare: 0, transcriptShare: 0, fired: [] },
    prompt: { L0: 'You are a worker.', L1: '### Constraint\nNever log tokens.', L2: 'findings…', L3: 'Generation 2 · 52% of budget', prefixHash: 'cd'.repeat(32) },
    ...over,
  };
}

export function makeDiff(agentId: string, from: number, to: number, over: Partial<GenerationDiffDto> = {}): GenerationDiffDto {
  return {
    agentId,
    from,
    to,
    added: [makeIncluded(makeItem('state:1', { class: 'task_state', title: 'State carried' }))],
    dropped: [{ entry: makeIncluded(makeItem('tool:1', { class: 'ephemeral', title: 'grep output' })), reason: 'no longer in the pool (removed or dropped at refresh)' }],
    compressed: [],
    kept: [makeIncluded(makeItem('constraint:a'))],
    tokenDelta: -1_100,
    reason: 'context limit',
    ...over,
  };
}

export function makeRun(over: Partial<RunDto> = {}): RunDto {
  return { runId: 'demo', driver: 'trace', label: 'Demo run', status: 'running', startedAt: 0, turns: 3, agents: 2, tickMs: 250, reason: null, ...over };
}

export const generationStarted = (agentId: string, generation: number, reason = 'context limit'): StrataEvent => ({
  name: 'generation.started',
  payload: { agentId, generation, previous: generation > 1 ? generation - 1 : null, boundary: { kind: generation > 1 ? 'refresh' : 'start', reason }, text: `Context refreshed · Generation ${generation - 1} → ${generation} · Reason: ${reason}` },
});

export const itemChanged = (item: ItemDto, change: 'pinned' | 'unpinned' | 'verified' = 'pinned'): StrataEvent => ({ name: 'item.changed', payload: { change, itemId: item.id, item } });
