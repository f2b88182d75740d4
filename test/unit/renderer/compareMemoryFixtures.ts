import type { ComparisonDto, ComparisonResultDto, ComparisonStrategy, MemoryEntryDto, RecordedTraceDto, SkillsDto, StrataEvent, TraceDto } from '../../../engine/contract';

export function makeTrace(id: string, over: Partial<TraceDto> = {}): TraceDto {
  return {
    id,
    name: `${id}.jsonl`,
    format: 'claude-code-jsonl',
    sourcePath: `/traces/${id}.jsonl`,
    sha256: 'a'.repeat(64),
    importedAt: '2026-01-01T00:00:00.000Z',
    steps: 3,
    toolCalls: 2,
    eventCount: 9,
    ...over,
  };
}

/**
 * A replay whose steps prompt `prompts[i]` tokens with `reads[i]` read from cache, the rest uncached
 * input, priced as claude-sonnet-4-5 ($3 input, $0.30 cache read per million tokens; no output).
 */
export function makeResult(traceId: string, strategy: ComparisonStrategy, prompts: number[], reads: number[] = prompts.map(() => 0)): ComparisonResultDto {
  const promptTokens = prompts.reduce((a, b) => a + b, 0);
  const read = reads.reduce((a, b) => a + b, 0);
  const inputUsd = ((promptTokens - read) * 3) / 1e6;
  const readUsd = (read * 0.3) / 1e6;
  const bytes = prompts.slice(1).reduce((a, b) => a + b * 4, 0);
  return {
    traceId,
    strategy,
    budget: strategy === 'full_history_baseline' ? null : 32_000,
    totals: {
      steps: prompts.length,
      promptTokens,
      meanPromptTokens: Math.round(promptTokens / prompts.length),
      uncachedTokens: promptTokens - read,
      input: promptTokens - read,
      cacheRead: read,
      cacheWrite: 0,
      costUsd: { input: inputUsd, cacheRead: readUsd, cacheWrite: 0, output: 0, prompt: inputUsd + readUsd, total: inputUsd + readUsd },
      model: 'claude-sonnet-4-5',
      priceNote: 'claude-sonnet-4-5 (Claude Sonnet 4.5, 4.6): $3 input, $0.3 cache read … per million tokens',
      cacheTtl: { ttl: '5m', source: 'default' },
      window: { tokens: 200_000, source: 'table', model: 'claude-sonnet-4-5', why: 'recorded model claude-sonnet-4-5 (https://platform.claude.com/docs/en/models/sonnet-4-5/overview, read 2026-12-01)' },
      hitRate: promptTokens ? read / promptTokens : 0,
      prefixReuse: 0.5,
      reuseBytes: { reused: bytes / 2, prompt: bytes },
      neededReferenceRecall: strategy === 'full_history_baseline' ? null : 0.75,
      pooledReferenceRecall: strategy === 'full_history_baseline' ? null : 0.6,
      references: strategy === 'full_history_baseline' ? { needed: 0, held: 0 } : { needed: 10, held: 6 },
      rereadsForced: strategy === 'full_history_baseline' ? 0 : 2,
      orphans: 0,
      invalid: 0,
      refreshes: 1,
      overheadP50Ms: 0.4,
    },
    series: prompts.map((p, i) => ({ step: i + 1, promptTokens: p, cacheRead: reads[i] ?? 0, cacheWrite: 0, uncached: p - (reads[i] ?? 0), prefixReuse: 0.5, recall: null })),
  };
}

export function makeComparison(over: Partial<ComparisonDto> = {}): ComparisonDto {
  return {
    comparisonId: 'cmp-1',
    status: 'finished',
    traceIds: ['tr_a'],
    traces: [{ traceId: 'tr_a', name: 'tr_a.jsonl', removed: false }],
    strategies: ['variable', 'full_history_baseline'],
    budget: 32_000,
    budgets: [32_000],
    provider: 'anthropic',
    ttl: null,
    model: null,
    window: null,
    startedAt: 1,
    finishedAt: 2,
    progress: { done: 2, total: 2 },
    results: [makeResult('tr_a', 'variable', [100, 200, 300], [0, 90, 180]), makeResult('tr_a', 'full_history_baseline', [100, 250, 400])],
    errors: [],
    recorded: [],
    notes: [],
    ...over,
  };
}

/** What the provider billed for one trace, with both baselines beside it and a recorded prefix, unless overridden. */
export function makeRecorded(traceId: string, over: Partial<RecordedTraceDto> = {}): RecordedTraceDto {
  return {
    traceId,
    model: 'claude-sonnet-4-5',
    calls: 42,
    promptTokens: 1_234_567,
    uncachedTokens: 98_765,
    cacheWriteTokens: 12_345,
    writesMissing: false,
    hitRate: 0.92,
    costUsd: 1.23,
    rereads: 3,
    asRecorded: { provider: 'anthropic', matched: 40, promptTokens: 1_278_900, hitRate: 0.874, promptError: 0.0359, cacheReadError: 0.031 },
    fullHistory: { provider: 'anthropic', matched: 40, promptTokens: 1_478_900, hitRate: 0.9, promptError: 0.1979, cacheReadError: 0.2 },
    prefix: { note: 'system prompt and tool schemas as recorded (11,204 tokens); token scale 1.100 fitted on the first 10 of 41 call-to-call growths', estimated: false, tokenScale: 1.1 },
    ...over,
  };
}

export function makeMemoryEntry(id: string, over: Partial<MemoryEntryDto> = {}): MemoryEntryDto {
  return {
    id,
    state: 'candidate',
    revision: 1,
    kind: 'finding',
    title: `title of ${id}`,
    body: `body of ${id}`,
    verified: false,
    evidence: { paths: ['src/a.ts'], commands: [], commit: null },
    provenance: { source: 'agent', agentId: 'primary', taskId: 't', itemId: `item-${id}`, observedAt: Date.UTC(2026, 0, 1), confidence: 0.8 },
    createdAt: 1,
    updatedAt: 1,
    ...over,
  };
}

export function makeSkills(over: Partial<SkillsDto> = {}): SkillsDto {
  return {
    loaded: [
      { name: 'git-hygiene', version: '1.0.0', description: 'Small commits.', domain: 'git', languages: [], mode: 'selected', priority: 40, tokenBudget: 700, dependsOn: [], conflictsWith: ['yolo'], format: 'strata', scope: 'shipped', origin: '/skills/git/SKILL.md' },
      { name: 'ts-conventions', version: '2.1.0', description: 'Strict TypeScript.', domain: 'typescript', languages: ['typescript'], mode: 'always', priority: 60, tokenBudget: 900, dependsOn: ['git-hygiene'], conflictsWith: [], format: 'strata', scope: 'workspace', origin: '.strata/skills/ts/SKILL.md' },
    ],
    errors: [{ kind: 'parse', message: 'front matter is not YAML', origin: '.strata/skills/bad/SKILL.md' }],
    selected: [{ agentId: 'primary', names: ['ts-conventions'], skipped: [{ name: 'git-hygiene', reason: 'over-budget', message: 'needs 700 tokens, 200 left' }], errors: [] }],
    ...over,
  };
}

export const progressEvent = (comparisonId: string, done: number, total: number, status: ComparisonDto['status'] = 'running'): StrataEvent => ({ name: 'comparison.progress', payload: { comparisonId, done, total, status } });
export const memoryChanged = (change: 'proposed' | 'verified' | 'retired' | 'stale' | 'purged', entry: MemoryEntryDto | null): StrataEvent => ({ name: 'memory.changed', payload: { change, id: entry?.id ?? null, entry } });
export const traceImported = (trace: TraceDto): StrataEvent => ({ name: 'trace.imported', payload: { trace } });

/** `r` with its steps' prefix reuse and recall replaced (one entry per step). */
/** `r` with per-step reuse and recall; its reuse bytes follow (4 bytes a token, the first step left out). */
function withStepRates(r: ComparisonResultDto, reuse: number[], recall: (number | null)[]): ComparisonResultDto {
  const series = r.series.map((s, i) => ({ ...s, prefixReuse: reuse[i] ?? s.prefixReuse, recall: recall[i] ?? null }));
  const later = series.slice(1);
  const reuseBytes = { reused: later.reduce((n, s) => n + s.promptTokens * 4 * s.prefixReuse, 0), prompt: later.reduce((n, s) => n + s.promptTokens * 4, 0) };
  return { ...r, series, totals: { ...r.totals, reuseBytes } };
}

/**
 * A finished comparison of two traces (tr_a, tr_b) under variable and the baseline. Over both traces,
 * variable has 5 steps, 1,100 prompt tokens, 780 uncached (hit rate 320/1,100), $0.002436 of prompt
 * (780 × $3 + 320 × $0.30 per million), prefix reuse by bytes (800·0.5 + 1,200·0.8 + 400·0.2)/2,400 = 0.6,
 * recall mean(1, 0.5, 0) = 0.5, 4 refreshes, 2 orphans, 3 invalid requests; the baseline 5 steps, 1,650 tokens, all
 * uncached ($0.00495), reuse 0.5, no recall, 2 refreshes.
 */
export function makeTwoTraceComparison(over: Partial<ComparisonDto> = {}): ComparisonDto {
  const bVariable = withStepRates(makeResult('tr_b', 'variable', [400, 100], [0, 50]), [0.9, 0.2], [0, null]);
  return makeComparison({
    traceIds: ['tr_a', 'tr_b'],
    progress: { done: 4, total: 4 },
    results: [
      withStepRates(makeResult('tr_a', 'variable', [100, 200, 300], [0, 90, 180]), [0, 0.5, 0.8], [null, 1, 0.5]),
      makeResult('tr_a', 'full_history_baseline', [100, 250, 400]),
      { ...bVariable, totals: { ...bVariable.totals, refreshes: 3, orphans: 2, invalid: 3, references: { needed: 5, held: 1 }, pooledReferenceRecall: 0.2, rereadsForced: 3 } },
      makeResult('tr_b', 'full_history_baseline', [400, 500]),
    ],
    ...over,
  });
}
