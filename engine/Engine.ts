import { compressText } from './compress/compressText';
import { extractSignals } from './compress/extractSignals';
import type { AgentIdentity } from './generations/AgentIdentity';
import { appendToGeneration } from './generations/appendToGeneration';
import { diffGenerations, type GenerationDiff } from './generations/diffGenerations';
import { type Boundary, DROPPED_KEPT, type Generation } from './generations/Generation';
import { droppedLogOf, lazyDroppedCopy } from './generations/DroppedLog';
import type { GenerationState } from './generations/GenerationState';
import { emptyRunStats, REASONS_KEPT, type RunStats } from './generations/RunStats';
import { startGeneration } from './generations/startGeneration';
import { EngineError, type EngineEvent } from './EngineEvent';
import type { BuildRequest, BuildResult, EngineOptions, RecalledEntry, RefreshResult } from './EngineTypes';
import type { ContextItem } from './items/ContextItem';
import { createItem, freezeItem, type ItemInput } from './items/createItem';
import { reuseRatio } from './metrics/prefixReuse';
import { PoolIndex } from './retrieve/PoolIndex';
import { keepsAcrossRefresh } from './items/survival';
import { commonPrefixBytes, utf8Length } from './text/utf8';
import type { Scope } from './pack/Scope';
import { BlockCounter } from './prompt/BlockCounter';
import { composeParts, type PromptParts } from './prompt/composeParts';
import { type Clock, systemClock } from './ports/Clock';
import { autoRefreshDue, computeIndicators } from './refresh/indicators';
import { isContextLimitError } from './refresh/ContextLimitError';
import { refreshText } from './refresh/refreshText';
import type { RetrieveRequest } from './retrieve/RetrieveRequest';
import { strategies } from './strategies/strategies';
import type { StrategyName } from './strategies/Strategy';
import { TokenCounter } from './tokens/TokenCounter';
import type { Tokenizer } from './tokens/Tokenizer';

/**
 * Generations per agent that keep their dropped sample in memory: the current one, whose sample
 * still grows and is stored as it does; an ended one's sample is in the catalog, and the items a
 * sample names (often long removed from the pool) would otherwise stay alive with it.
 */
export const RECENT_GENERATIONS = 1;
/** Generations per agent that keep their included entries in memory; older ones keep counts only. */
export const RECENT_FULL_GENERATIONS = 8;
/**
 * At a budget rebuild, the share of the pack target the kept L2 prefix may spend on entries a
 * fresh pack would leave out (`[rebuild-keeps-prefix]`): everything after the first change in the
 * prompt is written to the provider cache again, so keeping a slightly stale prefix in place is
 * cheaper than re-sorting it. Measured on the 24 shared traces (`bench:compare`, 32k / 100k):
 * 0.5 kept 94.8% / 97.5% prefix reuse at 76.6% / 83.6% recall; 0.8 keeps 95.3% / 97.6% at
 * 76.2% / 83.5%, with 6.7% / 0.7% fewer uncached tokens; 1.0 gains little more reuse (95.4%) and
 * loses more recall (75.8%).
 */
export const STALE_PREFIX_SHARE = 0.8;
/** Action signatures remembered per agent for `repeatedActions` (the newest distinct ones). */
export const SIGNATURES_KEPT = 2000;
/** Items the archive keeps (the newest); the catalog marks every removal. */
export const ARCHIVE_KEPT = 1000;
/**
 * Task state and findings of one agent the pool keeps live (`[durable-cap]`): past this, the oldest
 * that no current generation holds leave for the archive (the catalog keeps every one).
 */
export const DURABLE_KEPT_PER_AGENT = 128;
/** The pool drops its removed slots once they are at least this many and at least as many as the live ones. */
export const COMPACT_MIN_REMOVED = 4096;

interface AgentState {
  identity: AgentIdentity;
  strategy: StrategyName;
  scope: Scope;
  generations: Generation[];
  current?: GenerationState;
  /** The boundary the next build starts with; `auto` marks an indicator-triggered refresh. */
  pending?: Boundary & { auto?: boolean };
  lastRequest?: BuildRequest;
  lastPrompt?: string;
  lastParts?: PromptParts;
  signatures: Set<string>;
  stats: RunStats;
  /** Pool arrivals when the current and the previous generation began (`[ephemeral-expiry]`). */
  startSeq?: number;
  previousStartSeq?: number;
  /** Set by `endAgent` until the agent builds again (`[agent-end]`). */
  ended?: boolean;
}

const FRAME = '<constraints>\n</constraints>\n<context>\n</context>\n<now>\n</now>\n';

/** The L3 status line (`[L3-tail]`). */
const statusLine = (generation: number, utilization: number, phase: string) =>
  `Generation ${generation} · ${Math.round(utilization * 100)}% of budget · phase ${phase}`;

function checkStrategy(name: string): asserts name is StrategyName {
  if (!Object.hasOwn(strategies, name)) throw new EngineError('invalid', `Unknown strategy "${name}" (one of ${Object.keys(strategies).join(', ')}).`);
}

const cloneScope = (scope: Scope): Scope => {
  const out: Scope = { ...scope };
  if (scope.classes) out.classes = [...scope.classes];
  if (scope.dependencyTaskIds) out.dependencyTaskIds = [...scope.dependencyTaskIds];
  return Object.freeze(out);
};

const cloneIdentity = (identity: AgentIdentity): AgentIdentity => Object.freeze({ ...identity, scope: cloneScope(identity.scope) });

const cloneRequest = (r: BuildRequest): BuildRequest => {
  const out: BuildRequest = { ...r };
  for (const k of ['files', 'symbols', 'keywords', 'failures'] as const) if (r[k]) out[k] = [...(r[k] as string[])];
  return out;
};

/**
 * A copy of a generation that later builds do not change. Entries are shared: they are never
 * changed once made (and their items are frozen), so copying the arrays is enough.
 */
const snapshot = (g: Generation): Generation => {
  const copy: Generation = {
    agentId: g.agentId,
    number: g.number,
    phase: g.phase,
    strategy: g.strategy,
    budget: g.budget,
    tokens: g.tokens,
    layerTokens: { ...g.layerTokens },
    included: [...g.included],
    dropped: [],
    droppedTotal: g.droppedTotal,
    compressed: [...g.compressed],
    overflow: g.overflow,
    boundary: { kind: g.boundary.kind, reason: g.boundary.reason },
    builds: g.builds,
    prefixHash: g.prefixHash,
    startedAt: g.startedAt,
    indicators: { ...g.indicators, fired: [...g.indicators.fired] },
    ...(g.released ? { released: { ...g.released } } : {}),
  };
  // Reading a live generation's dropped list materializes it; a snapshot defers that too.
  const log = droppedLogOf(g);
  if (log) lazyDroppedCopy(copy, g, log.count);
  else copy.dropped = [...g.dropped];
  return copy;
};

export class Engine {
  /** The pool in arrival order; an agent's generation has seen its first `seenSeq` slots. */
  private readonly pool = new PoolIndex();
  private readonly archive: ContextItem[] = [];
  /** Ended agents that still own transient items some current generation held (`[agent-end]`). */
  private readonly endedHolding = new Set<string>();
  private readonly agents = new Map<string, AgentState>();
  private readonly listeners = new Set<(e: EngineEvent) => void>();
  private readonly clock: Clock;
  readonly tokens: TokenCounter;
  private readonly blocks: BlockCounter;
  private readonly minOptionalScore: number;
  private readonly compressMinTokens: number;

  constructor(private readonly options: EngineOptions) {
    this.clock = options.clock ?? systemClock;
    this.tokens = new TokenCounter(options.tokenizer);
    this.blocks = new BlockCounter(this.tokens);
    this.minOptionalScore = options.minOptionalScore ?? 0.3;
    this.compressMinTokens = options.compressMinTokens ?? 96;
  }

  /** Rendered-block tokens of a slot, counted once per item value. */
  private readonly slotTokens = (index: PoolIndex, slot: number): number => {
    let t = index.tokens.data[slot] as number;
    if (t < 0) {
      t = this.blocks.tokens(index.itemAt(slot) as ContextItem);
      index.tokens.data[slot] = t;
    }
    return t;
  };

  on(listener: (e: EngineEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(e: EngineEvent): void {
    for (const l of this.listeners) l(e);
  }

  // ---- agents -------------------------------------------------------------------------------

  registerAgent(identity: AgentIdentity, strategy: StrategyName = 'variable'): void {
    if (this.agents.has(identity.agentId)) throw new EngineError('duplicate', `Agent "${identity.agentId}" is already registered.`);
    if (!(Number.isInteger(identity.budget) && identity.budget > 0)) throw new EngineError('invalid', `Agent "${identity.agentId}" needs a positive whole budget.`);
    checkStrategy(strategy);
    const own = cloneIdentity(identity);
    this.agents.set(identity.agentId, { identity: own, strategy, scope: own.scope, generations: [], signatures: new Set(), stats: emptyRunStats() });
  }

  /** The agent's identity (a frozen value: the same for every generation, `[identity-survives]`). */
  identity(agentId: string): AgentIdentity {
    return this.agent(agentId).identity;
  }

  agentIds(): string[] {
    return [...this.agents.keys()];
  }

  /** Change strategy or scope; both take effect at the next boundary (`[scope-fixed]`). */
  configure(agentId: string, change: { strategy?: StrategyName; scope?: Scope }): void {
    const s = this.agent(agentId);
    if (change.strategy !== undefined) checkStrategy(change.strategy);
    if (change.strategy) s.strategy = change.strategy;
    if (change.scope) s.scope = cloneScope(change.scope);
    s.pending ??= { kind: 'rebuild', reason: 'strategy or scope changed' };
  }

  private agent(agentId: string): AgentState {
    const s = this.agents.get(agentId);
    if (!s) throw new EngineError('not_found', `No agent "${agentId}".`);
    return s;
  }

  // ---- items --------------------------------------------------------------------------------

  /** Add an item to the pool; it reaches agents at their next build. */
  addItem(input: ItemInput): ContextItem {
    if (this.pool.has(input.id)) throw new EngineError('duplicate', `An item "${input.id}" is already in the pool.`);
    if (input.content.length === 0) throw new EngineError('invalid', `Item "${input.id}" has no content.`);
    const item = createItem(input);
    this.pool.add(item);
    const owner = this.agents.get(item.provenance.agentId);
    if (owner && item.signature) {
      if (owner.signatures.has(item.signature)) owner.stats.repeatedActions++;
      else if (owner.signatures.size >= SIGNATURES_KEPT) owner.signatures.delete(owner.signatures.values().next().value as string);
      owner.signatures.add(item.signature);
    }
    this.emit({ type: 'item.added', item });
    return item;
  }

  item(id: string): ContextItem {
    const item = this.pool.get(id);
    if (!item) throw new EngineError('not_found', `No item "${id}" in the pool.`);
    return item;
  }

  items(): ContextItem[] {
    return [...this.pool.values()];
  }

  /** Items removed from the pool by refreshes and expiry (the newest {@link ARCHIVE_KEPT}), kept for observability. */
  archived(): ContextItem[] {
    return [...this.archive];
  }

  /** Pin: the item enters every context whole, in L1, from the next boundary of every agent. */
  pin(id: string): ContextItem {
    return this.replace(id, { pinned: true }, 'pinned', true);
  }

  unpin(id: string): ContextItem {
    return this.replace(id, { pinned: false }, 'unpinned', true);
  }

  /**
   * Verify exactly this item (`[verify-exact]`): other items with the same content stay as they
   * are. Takes effect in prompts at the next boundary; the emitted text of a generation never changes.
   */
  verify(id: string): ContextItem {
    const item = this.item(id);
    return this.replace(id, { provenance: { ...item.provenance, verified: true } }, 'verified', false);
  }

  /**
   * Promote an item. `pool`: store it as a structured finding in the engine pool (class finding,
   * same source, same verification). `memory`: hand it to project memory as a candidate, still
   * unverified unless it was verified (`[unverified-stays-unverified]`). The two are separate
   * operations (`[promote-separate]`).
   */
  promote(id: string, target: 'pool' | 'memory'): ContextItem {
    const item = this.item(id);
    if (target === 'memory') {
      this.emit({ type: 'memory.candidate', item });
      return item;
    }
    if (item.class === 'finding') return item;
    return this.replace(id, { class: 'finding', kind: 'finding', provenance: { ...item.provenance, durability: 'task' } }, 'promoted', false);
  }

  /**
   * Replace the agent's recalled project memory for this prompt (`[recall-replace]`): entries no
   * longer recalled leave the pool, new ones enter addressed to this agent only, as
   * `recalled_memory` project memory, never verified. Recall off is `setRecall(agent, [])`.
   * A recalled entry already emitted in the current generation keeps its place until the next
   * boundary (L2 only appends), so replacing recall never forces a cache miss.
   */
  setRecall(agentId: string, entries: readonly RecalledEntry[]): void {
    const s = this.agent(agentId);
    const prefix = `recall:${agentId}:`;
    const wanted = new Map(entries.map((e) => [`${prefix}${e.memoryId}`, e]));
    for (const item of [...this.pool.values()]) {
      if (item.id.startsWith(prefix) && !wanted.has(item.id)) {
        this.pool.remove(item.id);
        this.emit({ type: 'item.removed', itemId: item.id });
      }
    }
    this.maybeCompact();
    for (const [id, e] of wanted) {
      if (this.pool.has(id)) continue;
      this.addItem({
        id,
        kind: 'note',
        class: 'project_memory',
        title: `Recalled ${e.memoryId}${e.author ? ` (observed by ${e.author})` : ''}`,
        content: e.text,
        source: 'recalled_memory',
        agentId,
        taskId: s.identity.taskId,
        at: e.observedAt,
        confidence: e.confidence,
        relevance: 0.6,
        durability: 'project',
        files: e.paths,
        audience: agentId,
      });
    }
  }

  /** Remove an item; agents whose generation holds it rebuild at their next build. */
  remove(id: string): void {
    this.item(id);
    this.pool.remove(id);
    for (const s of this.agents.values()) {
      if (s.current?.emitted.has(id)) s.pending ??= { kind: 'rebuild', reason: `item ${id} removed` };
    }
    this.emit({ type: 'item.removed', itemId: id });
    this.maybeCompact();
  }

  private replace(id: string, patch: Partial<ContextItem>, change: 'pinned' | 'unpinned' | 'verified' | 'promoted', boundary: boolean): ContextItem {
    const item = freezeItem({ ...this.item(id), ...patch });
    this.pool.replace(item);
    if (boundary) for (const s of this.agents.values()) if (s.current) s.pending ??= { kind: 'rebuild', reason: `item ${id} ${change}` };
    this.emit({ type: 'item.changed', item, change });
    return item;
  }

  // ---- building -----------------------------------------------------------------------------

  /**
   * Build the agent's context for this turn. Inside a generation it only appends; it starts a
   * new generation at the first build, after a refresh, rebuild, pin change or phase change, and
   * when appending would exceed the budget.
   */
  build(agentId: string, input: BuildRequest): BuildResult {
    const s = this.agent(agentId);
    const request = cloneRequest(input);
    if (s.ended) {
      s.ended = false;
      this.endedHolding.delete(agentId);
    }
    s.lastRequest = request;
    const now = this.clock.now();
    const retrieveRequest = this.retrieveRequest(s, request, now);
    const l3Input = request.input ?? '';
    // L3 is counted at its widest status line, so the prompt sent never outgrows the count.
    const widestStatus = statusLine(9999, 10, request.phase);
    const reserve = this.blocks.text(FRAME) + this.blocks.text(l3Input) + this.blocks.text(widestStatus) + 2;
    if (s.pending?.kind === 'refresh' && s.pending.auto) this.dropTransient(s);

    let boundary: Boundary | undefined = s.pending;
    if (!s.current) boundary ??= { kind: 'start', reason: 'first build' };
    else if (!boundary && s.current.phase !== request.phase) boundary = { kind: 'rebuild', reason: `phase changed: ${s.current.phase} → ${request.phase}` };

    let generation = s.generations.at(-1);
    let budgetFull = false;
    if (!boundary && s.current && generation) {
      const arrivals = this.arrivalsSince(s.current.seenSeq);
      const outcome = appendToGeneration({
        identity: s.identity,
        state: s.current,
        generation,
        arrivals,
        seenSeq: this.pool.arrivals,
        request: retrieveRequest,
        reserve,
        blocks: this.blocks,
        minOptionalScore: this.minOptionalScore,
      });
      if (outcome === 'full') {
        boundary = { kind: 'rebuild', reason: `budget reached: appending would exceed ${generation.budget} tokens` };
        budgetFull = true;
      }
    }

    let started = false;
    if (boundary) {
      const previous = s.generations.at(-1);
      const { state, generation: g } = startGeneration({
        identity: s.identity,
        strategy: strategies[s.strategy],
        scope: s.scope,
        number: (previous?.number ?? 0) + 1,
        boundary,
        pool: this.pool,
        slotTokens: this.slotTokens,
        seenSeq: this.pool.arrivals,
        request: retrieveRequest,
        reserve,
        blocks: this.blocks,
        minOptionalScore: this.minOptionalScore,
        compressMinTokens: this.compressMinTokens,
        ...(boundary.kind === 'rebuild' && previous ? { previousL2: previous.included.filter((e) => e.layer === 'L2') } : {}),
        ...(budgetFull && previous ? { staleShare: STALE_PREFIX_SHARE, previousL1: new Set(previous.included.filter((e) => e.layer === 'L1').map((e) => e.item.id)) } : {}),
      });
      if (previous) droppedLogOf(previous)?.truncate(DROPPED_KEPT);
      // Memory stays bounded over a long run (`[bounded-history]`): generations older than the
      // newest RECENT_GENERATIONS keep their included entries (diffs need them) but release their
      // dropped sample; the workspace catalog stored it when they were built.
      const old = s.generations[s.generations.length - RECENT_GENERATIONS];
      if (old) droppedLogOf(old)?.truncate(0);
      const stale = s.generations[s.generations.length - RECENT_FULL_GENERATIONS];
      if (stale && !stale.released) {
        stale.released = { included: stale.included.length, compressed: stale.compressed.length };
        stale.included = [];
        stale.compressed = [];
      }
      s.current = state;
      s.generations.push(g);
      s.previousStartSeq = s.startSeq;
      s.startSeq = state.seenSeq;
      s.pending = undefined;
      s.stats.generations++;
      if (previous) {
        s.stats.refreshReasons.push(boundary.reason);
        if (s.stats.refreshReasons.length > REASONS_KEPT) s.stats.refreshReasons.splice(0, s.stats.refreshReasons.length - REASONS_KEPT);
      }
      generation = g;
      started = true;
      this.emit({
        type: 'generation.started',
        agentId,
        generation: g.number,
        previous: previous?.number ?? null,
        boundary,
        text: previous ? refreshText(previous.number, g.number, boundary.reason) : `Generation ${g.number} started`,
      });
      this.expireTransient(s);
      this.capDurable(s);
    }
    return this.finishBuild(s, generation as Generation, l3Input, reserve, started);
  }

  private finishBuild(s: AgentState, generation: Generation, input: string, reserve: number, started: boolean): BuildResult {
    const cur = s.current as GenerationState;
    generation.builds++;
    const contentTokens = cur.l0Tokens + cur.l1Tokens + cur.l2Tokens;
    const tokens = contentTokens + reserve;
    const status = statusLine(generation.number, tokens / generation.budget, cur.phase);
    const prompt: PromptParts = { ...composeParts({ L0: cur.l0, L1: cur.l1, L2: cur.l2Blocks.join(''), L3: `${input ? `${input}\n` : ''}${status}\n` }), l2Blocks: [...cur.l2Blocks] };
    const text = prompt.static + prompt.dynamic;
    generation.tokens = tokens;
    generation.layerTokens = { L0: cur.l0Tokens, L1: cur.l1Tokens, L2: cur.l2Tokens, L3: reserve };
    generation.overflow = Math.max(0, tokens - generation.budget);
    generation.prefixHash = prompt.prefixHash;
    generation.indicators = computeIndicators({
      tokens,
      budget: generation.budget,
      phase: cur.phase,
      ownItems: cur.ownItems,
      included: generation.included,
      stalledBuilds: generation.builds - cur.lastProgressBuild,
    });

    const bytes = utf8Length(text);
    const reused = s.lastPrompt === undefined ? 0 : commonPrefixBytes(s.lastPrompt, text);
    s.lastPrompt = text;
    s.lastParts = prompt;
    s.stats.builds++;
    s.stats.promptTokens += tokens;
    if (s.stats.builds > 1) {
      s.stats.promptBytes += bytes;
      s.stats.reusedBytes += reused;
    }
    const reuse = s.stats.builds > 1 ? reuseRatio(reused, bytes) : 0;
    this.emit({
      type: 'generation.built',
      agentId: s.identity.agentId,
      generation: generation.number,
      builds: generation.builds,
      tokens,
      budget: generation.budget,
      overflow: generation.overflow,
      reuse,
      indicators: generation.indicators,
    });
    if (this.options.autoRefresh && !started && autoRefreshDue(generation.indicators)) {
      s.pending = { kind: 'refresh', reason: `indicators: ${generation.indicators.fired.join(', ')}`, auto: true };
    }
    return { generation: snapshot(generation), prompt, text, reuse, started };
  }

  private retrieveRequest(s: AgentState, r: BuildRequest, now: number): RetrieveRequest {
    return {
      taskId: s.identity.taskId,
      task: s.identity.task,
      files: r.files ?? [],
      symbols: r.symbols ?? [],
      keywords: r.keywords ?? [],
      role: s.identity.role,
      phase: r.phase,
      failures: r.failures ?? [],
      now,
    };
  }

  private arrivalsSince(seen: number): ContextItem[] {
    const out: ContextItem[] = [];
    for (let slot = seen; slot < this.pool.arrivals; slot++) {
      const item = this.pool.itemAt(slot);
      if (item) out.push(item);
    }
    return out;
  }

  /** Start a new generation at the next build (`reason` is recorded), and build it now. */
  rebuild(agentId: string, reason = 'manual rebuild'): BuildResult {
    const s = this.agent(agentId);
    s.pending = { kind: 'rebuild', reason };
    return this.build(agentId, s.lastRequest ?? { phase: 'start' });
  }

  // ---- refresh ------------------------------------------------------------------------------

  /**
   * On a provider context-limit error, refresh instead of failing the task (`[refresh-on-limit]`);
   * any other error is not the engine's to handle and returns undefined. Counts the retry.
   */
  maybeRefresh(agentId: string, error: unknown): RefreshResult | undefined {
    if (!isContextLimitError(error)) return undefined;
    const s = this.agent(agentId);
    s.stats.retries++;
    return this.refresh(agentId, `provider context-limit error: ${error.message}`);
  }

  /**
   * Refresh (`[refresh-pipeline]`): extract durable state from the generation -> persist findings
   * -> drop the agent's ephemeral items and history -> new generation -> same agent identity.
   */
  refresh(agentId: string, reason: string): RefreshResult {
    const s = this.agent(agentId);
    const from = s.generations.at(-1)?.number ?? 0;
    const persistedFindings = [...this.pool.values()].filter((i) => i.provenance.agentId === agentId && i.class === 'finding').map((i) => i.id);
    const droppedItems = this.dropTransient(s);
    s.pending = { kind: 'refresh', reason };
    const result = this.build(agentId, s.lastRequest ?? { phase: 'start' });
    return { from, to: result.generation.number, reason, text: refreshText(from, result.generation.number, reason), persistedFindings, droppedItems, result };
  }

  /**
   * The first steps of every refresh, manual, on a context limit or by indicators: carry the
   * durable state of the agent's transient items into a task-state item, then move those items
   * from the pool to the archive. Returns their ids.
   */
  private dropTransient(s: AgentState): string[] {
    const agentId = s.identity.agentId;
    const transient = [...this.pool.values()].filter((i) => i.provenance.agentId === agentId && !keepsAcrossRefresh(i));
    this.carryState(s, s.generations.at(-1)?.number ?? 0, transient);
    this.retire(transient);
    if (s.pending?.auto) s.pending = { kind: 'refresh', reason: s.pending.reason };
    return transient.map((i) => i.id);
  }

  /**
   * Move items from the pool to the archive (which keeps the newest {@link ARCHIVE_KEPT}), then
   * compact the pool when enough slots are dead.
   */
  private retire(items: readonly ContextItem[]): void {
    for (const i of items) {
      this.pool.remove(i.id);
      this.archive.push(i);
      this.emit({ type: 'item.removed', itemId: i.id });
    }
    if (this.archive.length > ARCHIVE_KEPT) this.archive.splice(0, this.archive.length - ARCHIVE_KEPT);
    this.maybeCompact();
  }

  /**
   * `[ephemeral-expiry]`: at the start of an agent's generation, its ephemeral items and raw history
   * that arrived before its previous generation began (so at least two fresh packs have weighed
   * them) and that this generation's pack did not take leave the pool for the archive, unless some
   * agent's current generation holds them. Without this an agent that only ever rebuilds keeps
   * every grep and log it ever made, and a long run's pool grows without end.
   */
  private expireTransient(s: AgentState): void {
    const before = s.previousStartSeq ?? 0;
    const agentId = s.identity.agentId;
    const ended = this.endedHolding;
    if (before === 0 && ended.size === 0) return;
    const expired: ContextItem[] = [];
    const end = ended.size > 0 ? this.pool.arrivals : before;
    for (let slot = 0; slot < end; slot++) {
      const item = this.pool.itemAt(slot);
      if (!item || keepsAcrossRefresh(item)) continue;
      const owner = item.provenance.agentId;
      if (!((owner === agentId && slot < before) || ended.has(owner))) continue;
      if (!this.heldByCurrent(item.id)) expired.push(item);
    }
    this.retire(expired);
    for (const id of ended) if (!this.ownsTransient(id)) ended.delete(id);
  }

  /**
   * `[durable-cap]`: at the start of an agent's generation, when it has more than
   * {@link DURABLE_KEPT_PER_AGENT} task-state items and findings that nobody pinned, required or
   * verified, the oldest of them that no current generation holds leave the pool for the archive.
   * They are out of every context already; the catalog keeps them. Without this, an agent that
   * works for thousands of turns keeps every finding and failure it ever recorded in memory.
   */
  private capDurable(s: AgentState): void {
    const agentId = s.identity.agentId;
    const capped: ContextItem[] = [];
    for (const item of this.pool.values()) {
      if (item.provenance.agentId !== agentId || (item.class !== 'task_state' && item.class !== 'finding')) continue;
      if (!item.pinned && !item.mandatory && !item.provenance.verified) capped.push(item);
    }
    let excess = capped.length - DURABLE_KEPT_PER_AGENT;
    if (excess <= 0) return;
    const retired: ContextItem[] = [];
    for (const item of capped) {
      if (excess === 0) break;
      if (this.heldByCurrent(item.id)) continue;
      retired.push(item);
      excess--;
    }
    this.retire(retired);
  }

  /** True when the current generation of an agent that has not ended holds the item. */
  private heldByCurrent(itemId: string): boolean {
    for (const other of this.agents.values()) if (!other.ended && other.current?.emitted.has(itemId)) return true;
    return false;
  }

  private ownsTransient(agentId: string): boolean {
    for (const item of this.pool.values()) if (item.provenance.agentId === agentId && !keepsAcrossRefresh(item)) return true;
    return false;
  }

  /**
   * `[agent-end]`: the agent is done. Its generations stay inspectable; its ephemeral items and raw
   * history leave the pool for the archive now, or, when another agent's current generation holds
   * them, at the next boundary of any agent that no longer holds them. Its parent's report carries
   * what mattered. A later build of the agent takes it up again.
   */
  endAgent(agentId: string): void {
    const s = this.agent(agentId);
    if (s.ended) return;
    s.ended = true;
    s.signatures.clear();
    const expired = [...this.pool.values()].filter((i) => i.provenance.agentId === agentId && !keepsAcrossRefresh(i) && !this.heldByCurrent(i.id));
    this.retire(expired);
    if (this.ownsTransient(agentId)) this.endedHolding.add(agentId);
  }

  /** `[pool-compaction]`: drop the pool's removed slots and renumber what agents have seen. */
  private maybeCompact(): void {
    if (this.pool.removed < Math.max(COMPACT_MIN_REMOVED, this.pool.size)) return;
    const { renumber } = this.pool.compact();
    for (const s of this.agents.values()) {
      if (s.current) s.current.seenSeq = renumber(s.current.seenSeq);
      if (s.startSeq !== undefined) s.startSeq = renumber(s.startSeq);
      if (s.previousStartSeq !== undefined) s.previousStartSeq = renumber(s.previousStartSeq);
    }
  }

  /** The durable state of a generation's transient material, as one task-state item. */
  private carryState(s: AgentState, generation: number, transient: readonly ContextItem[]): void {
    if (transient.length === 0) return;
    const sig = extractSignals(transient.map((i) => i.content).join('\n'));
    const lines = [
      ...sig.failures.map((l) => `failure: ${l}`),
      ...sig.decisions.map((l) => `decision: ${l}`),
      ...sig.verification.map((l) => `verified by: ${l}`),
      ...sig.risks.map((l) => `risk: ${l}`),
    ];
    if (sig.paths.length) lines.push(`paths: ${sig.paths.join(', ')}`);
    if (sig.symbols.length) lines.push(`symbols: ${sig.symbols.join(', ')}`);
    if (lines.length === 0) return;
    const content = compressText(lines.join('\n'), 400, (t) => this.tokens.count(t)).text;
    const id = `state:${s.identity.agentId}:g${generation}`;
    if (this.pool.has(id)) return;
    this.addItem({
      id,
      kind: 'note',
      class: 'task_state',
      title: `State carried from generation ${generation}`,
      content,
      source: 'generated_summary',
      agentId: s.identity.agentId,
      taskId: s.identity.taskId,
      at: this.clock.now(),
      confidence: 0.6,
      relevance: 0.8,
      durability: 'task',
      files: sig.paths,
      symbols: sig.symbols,
    });
  }

  // ---- inspection ---------------------------------------------------------------------------

  /** Snapshots of every generation, oldest first (`[generations-kept]`). */
  generations(agentId: string): Generation[] {
    return this.agent(agentId).generations.map(snapshot);
  }

  generation(agentId: string, number: number): Generation {
    return snapshot(this.liveGeneration(agentId, number));
  }

  private liveGeneration(agentId: string, number: number): Generation {
    const g = this.agent(agentId).generations.find((x) => x.number === number);
    if (!g) throw new EngineError('not_found', `Agent "${agentId}" has no generation ${number}.`);
    return g;
  }

  diff(agentId: string, from: number, to: number): GenerationDiff {
    return diffGenerations(this.liveGeneration(agentId, from), this.liveGeneration(agentId, to));
  }

  stats(agentId: string): RunStats {
    const st = this.agent(agentId).stats;
    return { ...st, refreshReasons: [...st.refreshReasons] };
  }

  lastPrompt(agentId: string): string | undefined {
    return this.agent(agentId).lastPrompt;
  }

  /** The layers of the agent's latest prompt (of its current generation), if it was ever built. */
  lastPromptParts(agentId: string): PromptParts | undefined {
    return this.agent(agentId).lastParts;
  }

  /** The agent's current generation number, 0 before its first build. */
  currentGeneration(agentId: string): number {
    return this.agent(agentId).generations.at(-1)?.number ?? 0;
  }
}
