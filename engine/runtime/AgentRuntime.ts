import { AgentConversation, type ConversationEvent } from '../conversation/AgentConversation';
import type { ContextConfig } from '../conversation/contextConfig';
import { extractiveSummarizer } from '../conversation/extractiveSummarizer';
import type { HistoryMessage, ToolCall } from '../conversation/Message';
import type { Summarizer } from '../conversation/Summarizer';
import type { GroupInput } from '../conversation/readGroup';
import type { Engine } from '../Engine';
import type { AgentIdentity } from '../generations/AgentIdentity';
import type { ItemInput } from '../items/createItem';
import { cacheHitRate } from '../metrics/cacheHitRate';
import { reuseRatio } from '../metrics/prefixReuse';
import type { Clock } from '../ports/Clock';
import { sequentialIds } from '../ports/IdSource';
import type { ProviderRequest, Usage } from '../providers/Provider';
import type { SkillRegistry } from '../skills/SkillRegistry';
import { commonPrefixBytes, utf8Length } from '../text/utf8';
import type { Tokenizer } from '../tokens/Tokenizer';
import { Cancellation, CancelledError } from './Cancellation';
import { composeRequest, requestText } from './composeRequest';
import type { AgentAction, Driver, SpawnRequest, ToolBox, ToolOutcome } from './Driver';
import { parentReport } from './parentReport';
import { UsageLedger, type CallRecord } from './UsageLedger';

/** Where an agent is in its life. `paused` agents are skipped by the scheduler until resumed. */
export type AgentRunStatus = 'waiting' | 'running' | 'paused' | 'done' | 'failed' | 'cancelled';

export type RuntimeEvent =
  | { type: 'agent.added'; agent: AgentIdentity; dependsOn: string[] }
  | { type: 'agent.status'; agentId: string; status: AgentRunStatus; reason?: string }
  | { type: 'turn.completed'; agentId: string; turn: number; generation: number; call: CallRecord; toolCalls: number; done: boolean }
  | { type: 'context.refreshed'; agentId: string; from: number; to: number; reason: string };

export interface RuntimeOptions {
  engine: Engine;
  driver: Driver;
  tokenizer: Tokenizer;
  clock: Clock;
  context: ContextConfig;
  /** Runs tool calls a driver left without results (the model driver); without it they get an error result. */
  toolbox?: ToolBox;
  /** The items a tool call and its result add to the pool (grep hits ephemeral, test failures task state…). */
  toolItems?: (agent: AgentIdentity, call: ToolCall, outcome: ToolOutcome, at: number) => ItemInput[];
  /**
   * Prices every call with the provider cache model: the usage of a call no provider answered (a
   * replay counts 0 without it), and the estimate recorded beside a provider's own figures.
   */
  priceCall?: (agentId: string, request: ProviderRequest, at: number, outputTokens: number) => Usage;
  skills?: SkillRegistry;
  /** The conversations' summarizer for `compress` (default: the extractive one, no model call). */
  summarizer?: Summarizer;
  /** Before each build (the host recalls project memory there). */
  beforeBuild?: (engine: Engine, agentId: string, now: number) => void;
  onEvent?: (event: RuntimeEvent) => void;
  /** A conversation's compactions and reminders (the host logs them). */
  onConversationEvent?: (agentId: string, event: ConversationEvent) => void;
  /** Context-limit refreshes one turn may take before the agent fails. */
  maxLimitRetries?: number;
  /** Turns after which an agent is stopped as done (a runaway guard). */
  maxTurnsPerAgent?: number;
  maxOutputTokens?: number;
  /**
   * Wraps a turn's commit (conversation group, items, usage, children, status, `turn.completed`), so
   * a host can make it one storage transaction. If it throws, the agent fails with its message.
   */
  commit?: <T>(fn: () => T) => T;
}

interface AgentState {
  identity: AgentIdentity;
  status: AgentRunStatus;
  dependsOn: string[];
  turn: number;
  conversation: AgentConversation;
  cancel: Cancellation | undefined;
  /** Files the agent touched, for its report. */
  files: Set<string>;
  limitRetries: number;
  error?: string;
}

/** A turn's commit failed (the host's storage refused it); in-memory state is no longer trustworthy. */
export class CommitError extends Error {
  /** Stable for programs. */
  readonly code = 'commit_failed';

  constructor(
    readonly agentId: string,
    readonly turn: number,
    readonly failure: unknown,
  ) {
    super(`turn ${turn} of ${agentId} could not be committed: ${failure instanceof Error ? failure.message : String(failure)}`);
    this.name = 'CommitError';
  }
}

/** What one completed turn produced. */
export interface TurnResult {
  agentId: string;
  turn: number;
  call: CallRecord;
  action: AgentAction;
}

const ZERO: Usage = { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };
const TERMINAL: ReadonlySet<AgentRunStatus> = new Set(['done', 'failed', 'cancelled']);

/**
 * The agent runtime (`[runtime-turn]`): agents with their identity and dependencies, and the turn
 * loop of each: build the context (engine) → compose the request (engine layers + the agent's
 * conversation) → driver → tool results → commit (conversation group, pool items, usage) → policy
 * (conversation compaction) → children and reports. A turn commits all of it or none: a cancel
 * before the commit leaves the conversation, the pool and the ledger as they were. A provider
 * context-limit error refreshes the agent through the engine and retries the turn in the new
 * generation, at most `maxLimitRetries` times, each counted. Pure: time, ids, tokens, the driver
 * and the tools are injected.
 */
export class AgentRuntime {
  readonly ledger = new UsageLedger();
  readonly #o: RuntimeOptions;
  readonly #agents = new Map<string, AgentState>();
  readonly #order: string[] = [];
  readonly #lastRequest = new Map<string, string>();
  #cursor = 0;
  /** True inside a turn's commit: a listener failure there must fail the commit, not vanish. */
  #committing = false;

  constructor(options: RuntimeOptions) {
    this.#o = options;
  }

  /** Register an agent (with the engine too); it runs once every agent in `dependsOn` is done. */
  addAgent(identity: AgentIdentity, dependsOn: string[] = []): void {
    if (this.#agents.has(identity.agentId)) throw new RangeError(`agent ${identity.agentId} already exists in this run`);
    if (identity.parent !== null && !this.#agents.has(identity.parent)) throw new RangeError(`agent ${identity.agentId} names parent ${identity.parent}, which is not in this run`);
    const unknown = dependsOn.filter((d) => !this.#agents.has(d));
    if (unknown.length) throw new RangeError(`agent ${identity.agentId} depends on unknown agents: ${unknown.join(', ')}`);
    const { tokenizer, clock } = this.#o;
    this.#o.engine.registerAgent(identity);
    const conversation = new AgentConversation(systemPromptOf(identity), { tokenizer, clock, ids: sequentialIds() }, {
      config: this.#o.context,
      summarizer: this.#o.summarizer ?? extractiveSummarizer(tokenizer),
      ...(this.#o.skills ? { skills: this.#o.skills } : {}),
      onEvent: (event) => this.#o.onConversationEvent?.(identity.agentId, event),
    });
    // The task is given, not taken in a turn: it opens the conversation, so a cancelled first turn leaves nothing half written.
    conversation.append(conversation.beginTurn(), [{ role: 'user', content: `Task: ${identity.task}` }]);
    this.#agents.set(identity.agentId, { identity, status: 'waiting', dependsOn: [...dependsOn], turn: 0, conversation, cancel: undefined, files: new Set(), limitRetries: 0 });
    this.#order.push(identity.agentId);
    this.#emit({ type: 'agent.added', agent: identity, dependsOn: [...dependsOn] });
  }

  agentIds(): string[] {
    return [...this.#order];
  }

  status(agentId: string): AgentRunStatus {
    return this.#state(agentId).status;
  }

  /** Why an agent failed, if it did. */
  error(agentId: string): string | undefined {
    return this.#state(agentId).error;
  }

  conversation(agentId: string): AgentConversation {
    return this.#state(agentId).conversation;
  }

  turns(agentId: string): number {
    return this.#state(agentId).turn;
  }

  /** Context-limit retries the agent needed so far. */
  limitRetries(agentId: string): number {
    return this.#state(agentId).limitRetries;
  }

  /** Agents the scheduler may run now: waiting, with every dependency done. */
  runnable(): string[] {
    return this.#order.filter((id) => {
      const a = this.#agents.get(id);
      return a?.status === 'waiting' && a.dependsOn.every((d) => this.#agents.get(d)?.status === 'done');
    });
  }

  /** True when no agent can take another turn (all finished, or blocked on agents that failed). */
  finished(): boolean {
    return this.runnable().length === 0 && ![...this.#agents.values()].some((a) => a.status === 'running');
  }

  /** Run one turn of the next runnable agent, round robin; undefined when none can run. */
  async step(): Promise<TurnResult | undefined> {
    const ready = this.runnable();
    if (ready.length === 0) return undefined;
    const pick = ready.find((id) => this.#order.indexOf(id) >= this.#cursor) ?? ready[0]!;
    this.#cursor = this.#order.indexOf(pick) + 1;
    return this.runTurn(pick);
  }

  pause(agentId: string): void {
    const a = this.#state(agentId);
    if (a.status === 'waiting') this.#setStatus(a, 'paused');
  }

  resume(agentId: string): void {
    const a = this.#state(agentId);
    if (a.status === 'paused') this.#setStatus(a, 'waiting');
  }

  /** Cancel the agent: a turn in flight is abandoned with nothing committed, and it takes no more turns. */
  cancel(agentId: string, reason = 'cancelled by an operator'): void {
    const a = this.#state(agentId);
    if (TERMINAL.has(a.status)) return;
    a.cancel?.cancel(new CancelledError(reason));
    this.#setStatus(a, 'cancelled', reason);
  }

  /**
   * One turn of `agentId` (see the class comment). Resolves undefined when the turn was cancelled or
   * the agent failed; rejects with {@link CommitError} only when the commit wrapper threw.
   */
  async runTurn(agentId: string): Promise<TurnResult | undefined> {
    const a = this.#state(agentId);
    if (a.status !== 'waiting') throw new RangeError(`agent ${agentId} is ${a.status} and cannot take a turn`);
    const { engine, clock } = this.#o;
    const conv = a.conversation;
    const signal = new Cancellation();
    a.cancel = signal;
    this.#setStatus(a, 'running');
    const lease = conv.beginTurn();
    const turn = a.turn + 1;
    try {
      let retries = 0;
      let providerRetries = 0;
      let action: AgentAction;
      let request: ProviderRequest;
      for (;;) {
        const now = clock.now();
        this.#o.beforeBuild?.(engine, agentId, now);
        const built = engine.build(agentId, { phase: phaseOf(a.identity.role, turn), files: [...a.files].slice(-20) });
        const prepared = conv.prepareRequest({
          ...(built.prompt.layers.L3 ? { runtime: `<now>\n${built.prompt.layers.L3}</now>` } : {}),
          selection: { role: a.identity.role, phase: phaseOf(a.identity.role, turn), task: a.identity.task, files: [...a.files].slice(-20), languages: [], budget: skillBudget(a.identity.budget) },
        });
        request = composeRequest({ model: a.identity.model, parts: built.prompt, messages: prepared.messages, tools: this.#o.driver.tools, maxOutputTokens: this.#o.maxOutputTokens ?? 4096, cacheKey: agentId });
        try {
          action = await this.#o.driver.act({ agent: a.identity, turn, generation: built.generation.number, request, signal });
          providerRetries += action.providerRetries ?? 0;
          break;
        } catch (err) {
          if (signal.aborted) throw signal.reason;
          // A refusal that came after retryable failures: those HTTP retries count too.
          providerRetries += retriesBefore(err);
          const from = engine.currentGeneration(agentId);
          const refreshed = retries < (this.#o.maxLimitRetries ?? 2) ? engine.maybeRefresh(agentId, err) : undefined;
          if (!refreshed) throw err;
          retries++;
          a.limitRetries++;
          this.#emit({ type: 'context.refreshed', agentId, from, to: refreshed.to, reason: err instanceof Error ? err.message : String(err) });
        }
      }
      const results = await this.#results(a, action, signal);
      if (signal.aborted) throw signal.reason;
      // Commit: nothing awaits until the conversation group, the items and the usage are in.
      const commit = this.#o.commit ?? (<T>(fn: () => T): T => fn());
      this.#committing = true;
      const call = commit(() => {
        const at = clock.now();
        conv.append(lease, assistantGroup(action, results));
        for (const [i, toolCall] of action.toolCalls.entries()) {
          const outcome = results[i]!;
          for (const item of this.#o.toolItems?.(a.identity, toolCall, outcome, at) ?? []) {
            for (const f of item.files ?? []) a.files.add(f);
            engine.addItem(item);
          }
        }
        for (const [k, f] of (action.findings ?? []).entries()) {
          engine.addItem({ id: `finding:${agentId}:${turn}:${k}`, kind: 'finding', class: 'finding', source: 'worker_finding', title: f.title, content: f.content, agentId, taskId: a.identity.taskId, at, files: f.files ?? [] });
        }
        const text = requestText(request);
        const previous = this.#lastRequest.get(agentId);
        this.#lastRequest.set(agentId, text);
        const promptBytes = utf8Length(text);
        const reused = previous === undefined ? 0 : commonPrefixBytes(previous, text);
        const outputTokens = action.usage?.output ?? this.#o.tokenizer.count(action.text + action.toolCalls.map((c) => c.arguments).join(''));
        // The cache model prices every call: it is the usage of a replay, and beside a provider's
        // authoritative figures it shows how far the model is from the real cache.
        const estimate = this.#o.priceCall?.(agentId, request, at, outputTokens);
        const usage = action.usage ?? estimate ?? { ...ZERO, output: outputTokens };
        const call: CallRecord = {
          agentId,
          turn,
          generation: engine.currentGeneration(agentId),
          at,
          usage,
          modeled: action.usage === undefined,
          ...(action.usage && estimate ? { modeledUsage: estimate } : {}),
          hitRate: cacheHitRate(usage),
          prefixReuse: reuseRatio(reused, promptBytes),
          reuseBytes: { reused, prompt: promptBytes },
          retries: retries + providerRetries,
          providerRetries,
        };
        this.ledger.record(call);
        a.turn = turn;
        a.cancel = undefined;
        for (const s of action.spawn ?? []) this.#spawn(a, s);
        const done = action.done === true || turn >= (this.#o.maxTurnsPerAgent ?? 200);
        if (done) this.#finish(a, action);
        else this.#setStatus(a, 'waiting');
        this.#emit({ type: 'turn.completed', agentId, turn, generation: call.generation, call, toolCalls: action.toolCalls.length, done });
        return call;
      });
      this.#committing = false;
      const usage = call.usage;
      await conv.afterTurn({ inputTokens: usage.input + usage.cacheRead + usage.cacheWrite, outputTokens: usage.output });
      return { agentId, turn, call, action };
    } catch (err) {
      const inCommit = this.#committing;
      this.#committing = false;
      a.cancel = undefined;
      // The commit itself failed (the host's storage): the caller rebuilds from what was stored.
      if (inCommit) throw new CommitError(agentId, turn, err);
      conv.cancel(lease);
      if (err instanceof CancelledError || signal.aborted) {
        if ((a.status as AgentRunStatus) !== 'cancelled') this.#setStatus(a, 'cancelled', err instanceof Error ? err.message : 'cancelled');
        return undefined;
      }
      a.error = err instanceof Error ? err.message : String(err);
      this.#setStatus(a, 'failed', a.error);
      return undefined;
    }
  }

  /** The results in call order: the driver's, else the toolbox's, else an error saying nothing can run it. */
  async #results(a: AgentState, action: AgentAction, signal: Cancellation): Promise<ToolOutcome[]> {
    const given = new Map((action.results ?? []).map((r) => [r.callId, r]));
    const out: ToolOutcome[] = [];
    for (const call of action.toolCalls) {
      if (signal.aborted) break;
      const known = given.get(call.id);
      if (known) out.push(known);
      else if (this.#o.toolbox) out.push(await this.#o.toolbox.call(call, { agentId: a.identity.agentId, signal }));
      else out.push({ callId: call.id, content: `no tool runner for ${call.name} in this run`, isError: true });
    }
    return out;
  }

  #spawn(parent: AgentState, s: SpawnRequest): void {
    if (this.#agents.has(s.agentId)) return;
    const known = (s.dependsOn ?? []).filter((d) => this.#agents.has(d));
    this.addAgent(
      {
        agentId: s.agentId,
        parent: parent.identity.agentId,
        role: s.role,
        taskId: `task:${s.agentId}`,
        task: s.task,
        scope: {},
        model: s.model ?? parent.identity.model,
        workspace: parent.identity.workspace,
        budget: s.budget ?? parent.identity.budget,
      },
      known,
    );
  }

  /** Done: a child's transcript goes to its parent as one compressed report. */
  #finish(a: AgentState, last: AgentAction): void {
    this.#setStatus(a, 'done');
    const parentId = a.identity.parent;
    if (parentId !== null) {
      const transcript: HistoryMessage[] = a.conversation.manager.groups().flatMap((g) => g.messages);
      this.#o.engine.addItem(
        parentReport({
          child: a.identity,
          parentId,
          transcript,
          finalText: last.text,
          files: [...a.files],
          at: this.#o.clock.now(),
          countTokens: (t) => this.#o.tokenizer.count(t),
        }),
      );
    }
    // The report carries what mattered; the agent's greps, reads and transcript leave the pool (`[agent-end]`).
    this.#o.engine.endAgent(a.identity.agentId);
  }

  #state(agentId: string): AgentState {
    const a = this.#agents.get(agentId);
    if (!a) throw new RangeError(`no agent ${agentId} in this run`);
    return a;
  }

  #setStatus(a: AgentState, status: AgentRunStatus, reason?: string): void {
    if (a.status === status) return;
    a.status = status;
    this.#emit({ type: 'agent.status', agentId: a.identity.agentId, status, ...(reason ? { reason } : {}) });
  }

  #emit(event: RuntimeEvent): void {
    try {
      this.#o.onEvent?.(event);
    } catch (err) {
      // Inside a commit the listener is part of it (a host writing its catalog); elsewhere a
      // failing listener never breaks a turn that already committed.
      if (this.#committing) throw err;
    }
  }
}

/** The assistant message and one result per call, in call order: the atomic group the conversation stores. */
function assistantGroup(action: AgentAction, results: readonly ToolOutcome[]): GroupInput {
  const text = action.text.trim() !== '' || action.toolCalls.length > 0 ? action.text : '(no answer)';
  return [
    { role: 'assistant', content: text, toolCalls: action.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })) },
    ...results.map((r) => ({ role: 'tool' as const, toolCallId: r.callId, content: r.content, isError: r.isError })),
  ];
}

/** Tokens an agent's selected skills may take: a tenth of its budget, at least 2,000 (a page of guidance or two). */
function skillBudget(agentBudget: number): number {
  return Math.max(2000, Math.floor(agentBudget / 10));
}

/**
 * The phase a role works in. One phase per role for the agent's life: a phase change starts a new
 * generation, so switching phases by turn would refresh every agent for nothing.
 */
function phaseOf(role: AgentIdentity['role'], _turn: number): string {
  switch (role) {
    case 'primary':
      return 'plan';
    case 'probe':
      return 'investigate';
    case 'reviewer':
      return 'review';
    case 'test':
      return 'test';
    case 'debug':
      return 'debug';
    default:
      return 'implement';
  }
}

/** The canonical system prompt of an agent in a run: stable for its whole life, so it caches. */
function systemPromptOf(identity: Pick<AgentIdentity, 'agentId' | 'role' | 'task'>): string {
  return `You are ${identity.agentId}, a ${identity.role} agent in a Strata workspace. Your task: ${identity.task}\nWork in small verified steps; the repository and fresh tool output win over anything remembered.`;
}

/** HTTP retries made before a provider refusal (its `attempts` less the one refused); 0 for anything else. */
function retriesBefore(err: unknown): number {
  const attempts = typeof err === 'object' && err !== null ? (err as { attempts?: unknown }).attempts : undefined;
  return typeof attempts === 'number' && Number.isSafeInteger(attempts) && attempts > 1 ? attempts - 1 : 0;
}
