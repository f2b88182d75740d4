import type { AgentIdentity } from './generations/AgentIdentity';
import { appendToGeneration } from './generations/appendToGeneration';
import { historyToRelease } from './generations/boundedHistory';
import { buildTokens } from './generations/buildTokens';
import { carriedLayers } from './generations/carriedLayers';
import { changeImpact, type AgentImpact, type ItemChange } from './generations/changeImpact';
import { diffGenerations, type GenerationDiff } from './generations/diffGenerations';
import type { Boundary, Generation } from './generations/Generation';
import { droppedLogOf } from './generations/DroppedLog';
import type { GenerationState } from './generations/GenerationState';
import { budgetBoundary, indicatorRefresh, openingBoundary, type PendingBoundary } from './generations/nextBoundary';
import { emptyRunStats, REASONS_KEPT, type RunStats, signatureStep } from './generations/RunStats';
import { startGeneration } from './generations/startGeneration';
import { cloneIdentity, cloneRequest, snapshotGeneration } from './engineCopies';
import { EngineError, type EngineEvent } from './EngineEvent';
import type { BuildRequest, BuildResult, EngineOptions, RecalledEntry, RefreshResult } from './EngineTypes';
import type { ContextItem } from './items/ContextItem';
import { createItem, freezeItem, type ItemInput } from './items/createItem';
import { archiveExcess, compactionDue, durableOverCap, expiredTransient, ownsTransient, transientOf } from './items/retention';
import { reuseRatio } from './metrics/prefixReuse';
import { PoolIndex } from './retrieve/PoolIndex';
import { commonPrefixBytes, utf8Length } from './text/utf8';
import { BlockCounter } from './prompt/BlockCounter';
import { composeParts, type PromptParts } from './prompt/composeParts';
import { l3Reserve, l3Text, statusLine } from './prompt/l3Tail';
import { type Clock, systemClock } from './ports/Clock';
import { computeIndicators } from './refresh/indicators';
import { carriedState } from './refresh/carryState';
import { isContextLimitError } from './refresh/ContextLimitError';
import { refreshText } from './refresh/refreshText';
import { contextLimitReason } from './shared/contextLimitReason';
import type { RetrieveRequest } from './retrieve/RetrieveRequest';
import { strategies } from './strategies/strategies';
import type { StrategyName } from './strategies/Strategy';
import { TokenCounter } from './tokens/TokenCounter';

/** What the Engine holds per agent; only the Engine reads or changes it. */
interface AgentState {
  identity: AgentIdentity;
  strategy: StrategyName;
  generations: Generation[];
  current?: GenerationState;
  /** The boundary the next build starts with; `auto` marks an indicator-triggered refresh. */
  pending?: PendingBoundary;
  lastRequest?: BuildRequest;
  /** The latest prompt's layers; its text is `static + dynamic` (`lastPrompt`), not stored beside them. */
  lastParts?: PromptParts;
  signatures: Set<string>;
  stats: RunStats;
  /** Pool arrivals when the current and the previous generation began (`[ephemeral-expiry]`). */
  startSeq?: number;
  previousStartSeq?: number;
  /** Set by `endAgent` until the agent builds again (`[agent-end]`). */
  ended?: boolean;
}

/** A prompt's whole text: its static (L0+L1) and dynamic (L2+L3) parts. */
const promptText = (p: PromptParts): string => p.static + p.dynamic;

function checkStrategy(name: string): asserts name is StrategyName {
  if (!Object.hasOwn(strategies, name)) throw new EngineError('invalid', `Unknown strategy "${name}" (one of ${Object.keys(strategies).join(', ')}).`);
}

/** The retrieval query of a build: the agent's task and role with what the turn works on. */
const retrieveRequestOf = (identity: AgentIdentity, r: BuildRequest, now: number): RetrieveRequest => ({
  taskId: identity.taskId,
  task: identity.task,
  files: r.files ?? [],
  symbols: r.symbols ?? [],
  keywords: r.keywords ?? [],
  role: identity.role,
  phase: r.phase,
  failures: r.failures ?? [],
  now,
});

/**
 * The context engine: the one mutation boundary for the pool, the archive and every agent's
 * generations (`[one-boundary]`). Callers request operations; the policies it applies (retention,
 * boundaries, carried state, bounded history) are pure decisions it asks and then carries out
 * itself, and what it hands out are copies or frozen values.
 */
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
    this.agents.set(identity.agentId, { identity: own, strategy, generations: [], signatures: new Set(), stats: emptyRunStats() });
  }

  /** The agent's identity (a frozen value: the same for every generation, `[identity-survives]`). */
  identity(agentId: string): AgentIdentity {
    return this.agent(agentId).identity;
  }

  agentIds(): string[] {
    return [...this.agents.keys()];
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
      const step = signatureStep(owner.signatures, item.signature);
      if (step.repeated) owner.stats.repeatedActions++;
      if (step.evict !== undefined) owner.signatures.delete(step.evict);
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

  /** True while the pool holds an item with this id (a generation may still list one that left it). */
  hasItem(id: string): boolean {
    return this.pool.has(id);
  }

  /** Items removed from the pool by refreshes and expiry (the newest `ARCHIVE_KEPT`), kept for observability. */
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

  /**
   * `[change-preview]`: what an item control would do to the agents' prompt caches, before it is
   * used: which agents with a current generation start a new one (and when), where they hold the
   * item, and how many tokens of their cached prompt the change makes the provider miss. Changes nothing.
   */
  previewChange(id: string, change: ItemChange): AgentImpact[] {
    this.item(id);
    const current = [...this.agents.values()].filter((s) => s.current && !s.ended && s.generations.length > 0);
    return changeImpact(id, change, current.map((s) => ({ agentId: s.identity.agentId, generation: s.generations.at(-1) as Generation })));
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
    const retrieveRequest = retrieveRequestOf(s.identity, request, this.clock.now());
    const l3Input = request.input ?? '';
    const reserve = l3Reserve(this.blocks, l3Input, request.phase);
    if (s.pending?.kind === 'refresh' && s.pending.auto) this.dropTransient(s);

    let boundary = openingBoundary(s.pending, s.current, request.phase);
    let budgetFull = false;
    if (!boundary && this.append(s, retrieveRequest, reserve) === 'full') {
      boundary = budgetBoundary((s.generations.at(-1) as Generation).budget);
      budgetFull = true;
    }
    if (boundary) this.startNext(s, boundary, budgetFull, retrieveRequest, reserve);
    return this.finishBuild(s, s.generations.at(-1) as Generation, l3Input, reserve, boundary !== undefined);
  }

  /** Append what arrived since the agent's last build to its current generation (`[L2-append]`). */
  private append(s: AgentState, request: RetrieveRequest, reserve: number): 'full' | 'appended' {
    return appendToGeneration({
      identity: s.identity,
      state: s.current as GenerationState,
      generation: s.generations.at(-1) as Generation,
      arrivals: this.arrivalsSince((s.current as GenerationState).seenSeq),
      seenSeq: this.pool.arrivals,
      request,
      reserve,
      blocks: this.blocks,
      minOptionalScore: this.minOptionalScore,
    });
  }

  /**
   * Start the agent's next generation at `boundary`: pack it afresh, let go of what its history no
   * longer keeps, record it, announce it, then apply the pool's retention at the boundary.
   */
  private startNext(s: AgentState, boundary: Boundary, budgetFull: boolean, request: RetrieveRequest, reserve: number): void {
    const previous = s.generations.at(-1);
    const { state, generation } = startGeneration({
      identity: s.identity,
      strategy: strategies[s.strategy],
      scope: s.identity.scope,
      number: (previous?.number ?? 0) + 1,
      boundary,
      pool: this.pool,
      slotTokens: this.slotTokens,
      seenSeq: this.pool.arrivals,
      request,
      reserve,
      blocks: this.blocks,
      minOptionalScore: this.minOptionalScore,
      compressMinTokens: this.compressMinTokens,
      ...carriedLayers(boundary, budgetFull, previous),
    });
    const history = historyToRelease(s.generations);
    for (const { generation: g, keep } of history.samples) droppedLogOf(g)?.truncate(keep);
    const stale = history.entries;
    if (stale) {
      stale.released = { included: stale.included.length, compressed: stale.compressed.length };
      stale.included = [];
      stale.compressed = [];
    }
    s.current = state;
    s.generations.push(generation);
    s.previousStartSeq = s.startSeq;
    s.startSeq = state.seenSeq;
    s.pending = undefined;
    s.stats.generations++;
    if (previous) {
      s.stats.refreshReasons.push(boundary.reason);
      if (s.stats.refreshReasons.length > REASONS_KEPT) s.stats.refreshReasons.splice(0, s.stats.refreshReasons.length - REASONS_KEPT);
    }
    this.emit({
      type: 'generation.started',
      agentId: s.identity.agentId,
      generation: generation.number,
      previous: previous?.number ?? null,
      boundary,
      text: previous ? refreshText(previous.number, generation.number, boundary.reason) : `Generation ${generation.number} started`,
    });
    this.expireTransient(s);
    this.retire(durableOverCap(this.pool.values(), s.identity.agentId, this.held));
  }

  private finishBuild(s: AgentState, generation: Generation, input: string, reserve: number, started: boolean): BuildResult {
    const cur = s.current as GenerationState;
    generation.builds++;
    const { tokens, layerTokens, overflow } = buildTokens(cur, generation.budget, reserve);
    const status = statusLine(generation.number, tokens / generation.budget, cur.phase);
    const prompt: PromptParts = { ...composeParts({ L0: cur.l0, L1: cur.l1, L2: cur.l2Blocks.join(''), L3: l3Text(input, status) }), l2Blocks: [...cur.l2Blocks] };
    const text = promptText(prompt);
    generation.layerTokens = layerTokens;
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
    const reused = s.lastParts === undefined ? 0 : commonPrefixBytes(promptText(s.lastParts), text);
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
      overflow,
      reuse,
      indicators: generation.indicators,
    });
    const auto = indicatorRefresh({ autoRefresh: this.options.autoRefresh === true, started, indicators: generation.indicators });
    if (auto) s.pending = auto;
    return { generation: snapshotGeneration(generation), prompt, text, reuse, started };
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

  /**
   * `[restore-generation]`: rebuild the agent from one of its generations. The items that
   * generation included and the pool no longer holds come back (the whole value the archive kept,
   * or the value the generation showed when it was not clipped or compressed), then the agent
   * starts a new generation now, reason `restored from generation N`, packed afresh: the returned
   * items compete like any item; pinned and mandatory ones always enter. Returns the build and the
   * ids that came back. A generation whose entries were released from memory cannot be restored.
   */
  restore(agentId: string, number: number): { result: BuildResult; restored: string[]; missing: string[] } {
    const s = this.agent(agentId);
    const g = this.liveGeneration(agentId, number);
    if (g.released) throw new EngineError('invalid', `Generation ${number} of "${agentId}" is older than the newest generations kept in memory; its items cannot be restored.`);
    const shortened = new Set(g.compressed.map((c) => c.itemId));
    const archived = new Map(this.archive.map((i) => [i.id, i]));
    const restored: string[] = [];
    const missing: string[] = [];
    for (const e of g.included) {
      const id = e.item.id;
      if (this.pool.has(id)) continue;
      const whole = archived.get(id) ?? (shortened.has(id) ? undefined : e.item);
      if (!whole) {
        missing.push(id);
        continue;
      }
      this.pool.add(whole);
      restored.push(id);
      this.emit({ type: 'item.added', item: whole });
    }
    s.pending = { kind: 'rebuild', reason: `restored from generation ${number}` };
    return { result: this.build(agentId, s.lastRequest ?? { phase: 'start' }), restored, missing };
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
    return this.refresh(agentId, contextLimitReason(error.message));
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
    const { agentId, taskId } = s.identity;
    const transient = transientOf(this.pool.values(), agentId);
    const carried = carriedState({ agentId, taskId, generation: s.generations.at(-1)?.number ?? 0, transient, countTokens: (t) => this.tokens.count(t) });
    if (carried && !this.pool.has(carried.id)) this.addItem({ ...carried, at: this.clock.now() });
    this.retire(transient);
    if (s.pending?.auto) s.pending = { kind: 'refresh', reason: s.pending.reason };
    return transient.map((i) => i.id);
  }

  /**
   * Move items from the pool to the archive (which keeps the newest `ARCHIVE_KEPT`), then
   * compact the pool when enough slots are dead.
   */
  private retire(items: readonly ContextItem[]): void {
    for (const i of items) {
      this.pool.remove(i.id);
      this.archive.push(i);
      this.emit({ type: 'item.removed', itemId: i.id });
    }
    const excess = archiveExcess(this.archive.length);
    if (excess > 0) this.archive.splice(0, excess);
    this.maybeCompact();
  }

  /**
   * `[ephemeral-expiry]` at the start of an agent's generation: what expired leaves for the
   * archive, and ended agents that no longer own transient items stop being watched (`[agent-end]`).
   */
  private expireTransient(s: AgentState): void {
    const ended = this.endedHolding;
    this.retire(expiredTransient({ agentId: s.identity.agentId, before: s.previousStartSeq ?? 0, ended, slots: this.pool, held: this.held }));
    for (const id of ended) if (!ownsTransient(this.pool.values(), id)) ended.delete(id);
  }

  /** True when the current generation of an agent that has not ended holds the item. */
  private readonly held = (itemId: string): boolean => {
    for (const other of this.agents.values()) if (!other.ended && other.current?.emitted.has(itemId)) return true;
    return false;
  };

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
    this.retire(transientOf(this.pool.values(), agentId).filter((i) => !this.held(i.id)));
    if (ownsTransient(this.pool.values(), agentId)) this.endedHolding.add(agentId);
  }

  /** `[pool-compaction]`: drop the pool's removed slots and renumber what agents have seen. */
  private maybeCompact(): void {
    if (!compactionDue(this.pool.removed, this.pool.size)) return;
    const { renumber } = this.pool.compact();
    for (const s of this.agents.values()) {
      if (s.current) s.current.seenSeq = renumber(s.current.seenSeq);
      if (s.startSeq !== undefined) s.startSeq = renumber(s.startSeq);
      if (s.previousStartSeq !== undefined) s.previousStartSeq = renumber(s.previousStartSeq);
    }
  }

  // ---- inspection ---------------------------------------------------------------------------

  /** Snapshots of every generation, oldest first (`[generations-kept]`). */
  generations(agentId: string): Generation[] {
    return this.agent(agentId).generations.map(snapshotGeneration);
  }

  generation(agentId: string, number: number): Generation {
    return snapshotGeneration(this.liveGeneration(agentId, number));
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
    const parts = this.agent(agentId).lastParts;
    return parts && promptText(parts);
  }

  /** The layers of the agent's latest prompt (of its current generation), if it was ever built. */
  lastPromptParts(agentId: string): PromptParts | undefined {
    return this.agent(agentId).lastParts;
  }

  /** The agent's current generation number, 0 before its first build. */
  currentGeneration(agentId: string): number {
    return this.agent(agentId).generations.at(-1)?.number ?? 0;
  }

  /**
   * How generation `number` of the agent began (`[agent-boundary]`), without copying the generation;
   * undefined for an agent or a generation the engine does not hold (a catalog row it never built).
   */
  boundaryOf(agentId: string, number: number): Boundary | undefined {
    const b = this.agents.get(agentId)?.generations.findLast((g) => g.number === number)?.boundary;
    return b && { kind: b.kind, reason: b.reason };
  }
}
