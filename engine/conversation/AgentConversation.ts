import type { SkillRegistry } from '../skills/SkillRegistry';
import type { SkillSelection } from '../skills/selectSkills';
import type { SelectionContext } from '../skills/SkillSelector';
import type { Audit } from './ContextAudit';
import { ContextError } from './ContextError';
import { ContextManager, type ContextPorts } from './ContextManager';
import type { ContextSnapshot } from './ContextSnapshot';
import { isCheckpointError, makeCheckpoint, type CheckpointError, type ContextCheckpoint } from './checkpoint';
import type { ContextConfig } from './contextConfig';
import { nativeCompactionDue, pressureReminderText, taskPressure } from './contextPressure';
import { buildFallbackSummary, clipField, DEFAULT_FALLBACK_CAPS } from './fallbackSummary';
import type { Message, TransientMessage, TurnGroup } from './Message';
import { messageTokens } from './messageTokens';
import type { GroupInput } from './readGroup';
import type { Summarizer } from './Summarizer';
import type { TurnLease } from './TurnLease';
import { buildWorkspaceReminder, INITIAL_REMINDER_STATE, markCompacted, restoreReminderState, takeReminder, type ReminderState, type WorkspaceFacts } from './workspaceReminder';

/**
 * One agent's conversation with its policy: the runtime's single entry point to a
 * {@link ContextManager}. It decides when and how the conversation shrinks (the `[context]`
 * strategy over `max_tokens`, the one-shot task-pressure reminder and fallback, a runtime's native
 * compaction at 85% of its window), runs the compaction hooks, writes an event for every decision,
 * records checkpoints, owes the workspace reminder after a compaction, and injects the turn's
 * transients (selected skills, recalled memory, runtime state, reminders) at the request's tail.
 */

/** What made a compaction run. */
type CompactionTrigger = 'budget' | 'task_pressure' | 'context_window';
/** How it ran: the configured strategy, the deterministic fallback, or the runtime's own compaction. */
type CompactionMethod = 'truncate' | 'compress' | 'fallback' | 'native';

/** What a pre-compact hook is asked to allow. */
export interface CompactionPlan {
  trigger: CompactionTrigger;
  method: CompactionMethod;
  /** Tokens of system prompt, summary and history now. */
  tokens: number;
  /** The limit that was reached (max_tokens, the task cap, or the context window). */
  limit: number;
}

interface ConversationPreCompactHook {
  name: string;
  /** A reason to deny the compaction, or undefined to allow it. A throw denies (fail closed). */
  run(plan: CompactionPlan): string | undefined | Promise<string | undefined>;
}
interface ConversationPostCompactHook {
  name: string;
  /** Runs after a compaction that changed something; it cannot undo it, and a throw is recorded. */
  run(event: CompactionEvent): void | Promise<void>;
}

/** The record of one compaction decision, written whether it compacted, was denied or failed. */
export interface CompactionEvent {
  kind: 'compaction';
  id: string;
  trigger: CompactionTrigger;
  method: CompactionMethod;
  outcome: 'compacted' | 'denied' | 'failed' | 'unchanged';
  reason: string;
  tokensBefore: number;
  tokensAfter: number;
  /** The manager's audit of a local compaction. */
  audit?: Audit;
  /**
   * The checkpoint a local compress/fallback made, or the one a native runtime returned. In the
   * kept event trail it is present only while the checkpoint is among the newest CHECKPOINT_LIMIT
   * (`[checkpoints-bounded]`); after that the event says `checkpointReleased`.
   */
  checkpoint?: ContextCheckpoint;
  /** The event's checkpoint aged out of the kept checkpoints; the trail no longer holds its summary. */
  checkpointReleased?: true;
  /** Why a checkpoint was refused (it is then absent, never repaired). */
  checkpointError?: CheckpointError;
  deniedBy?: string;
  postHookFailures?: { name: string; message: string }[];
  at: number;
}

export type ConversationEvent =
  | CompactionEvent
  | { kind: 'pressure_reminder'; usedTokens: number; maxTotalTokens: number; at: number }
  | { kind: 'workspace_reminder'; compactionId: string; at: number };

/** A runtime that compacts on its side (provider-managed context) and may hand back a checkpoint. */
export interface NativeCompactor {
  compact(): Promise<{ checkpoint?: ContextCheckpoint }>;
}

export interface AgentConversationOptions {
  config: ContextConfig;
  /** Summarizer of the `compress` strategy (the extractive one by default at the host). */
  summarizer: Summarizer;
  /** Skills for selection; none when absent. */
  skills?: SkillRegistry;
  /** The task's `max_total_tokens`: denominator of task pressure. Without it there is no task pressure. */
  maxTotalTokens?: number;
  /** Present when the runtime compacts natively (denominator: its context window). */
  native?: NativeCompactor;
  preCompact?: readonly ConversationPreCompactHook[];
  postCompact?: readonly ConversationPostCompactHook[];
  /** Every event, as it is written (the host logs them). */
  onEvent?: (event: ConversationEvent) => void;
  /** The workspace as it is now, for the reminder after a compaction. */
  workspaceFacts?: () => WorkspaceFacts;
}

/** What a turn adds to its request, all transient. */
export interface RequestInput {
  /** The turn for skill selection; `budget` defaults to a quarter of max_tokens. */
  selection?: Omit<SelectionContext, 'budget'> & { budget?: number };
  /** Rendered recalled memory. */
  memory?: string;
  /** Runtime state for this turn (for example the engine's packed task state). */
  runtime?: string;
}

export interface PreparedRequest {
  messages: Message[];
  transients: TransientMessage[];
  skills: SkillSelection | undefined;
  /** Tokens of the whole request, transients included. */
  tokens: number;
  /**
   * Whether the request is within `max_tokens`, checked before any provider call. False when the
   * newest turn alone or this turn's transients do not fit: the caller compacts (`afterTurn`) or
   * sends less instead of letting the provider refuse it.
   */
  fits: boolean;
}

/** Telemetry after a completed turn; all optional (without it local counts are used). */
export interface TurnTelemetry {
  /** Input tokens the provider reported for the turn's last request. */
  inputTokens?: number;
  outputTokens?: number;
  /** The context window the runtime reports. */
  contextWindow?: number;
}

/** Everything an AgentConversation persists: the conversation plus its policy state. */
export interface AgentConversationSnapshot {
  version: 1;
  context: ContextSnapshot;
  reminder: ReminderState;
  pressure: { usedTokens: number; reminderSent: boolean; reminderQueued: boolean; fallbackRan: boolean };
  checkpoints: ContextCheckpoint[];
  events: ConversationEvent[];
}

/** Events and checkpoints kept with the conversation; older ones go first. */
const EVENT_TRAIL_LIMIT = 200;
export const CHECKPOINT_LIMIT = 20;

/** Identifies a checkpoint across a snapshot round trip (which copies it). */
const checkpointKey = (k: ContextCheckpoint): string => `${k.sourceTurnIds.join('\u0000')}\u0001${k.summary}`;

const errorText = (err: unknown): string => clipField(err instanceof Error ? err.message : String(err), 200);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

export class AgentConversation {
  readonly manager: ContextManager;
  readonly #options: AgentConversationOptions;
  readonly #ports: ContextPorts;
  #reminder: ReminderState = INITIAL_REMINDER_STATE;
  #pressure = { usedTokens: 0, reminderSent: false, reminderQueued: false, fallbackRan: false };
  #checkpoints: ContextCheckpoint[] = [];
  #events: ConversationEvent[] = [];
  #lastSelection: SkillSelection | undefined;
  #lastRequestTokens = 0;
  #lastRequest: { tokens: number; transients: { source: TransientMessage['source']; tokens: number }[] } | undefined;
  /** Settles run one at a time, so two turns finishing together cannot compact twice at once. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(systemPrompt: string, ports: ContextPorts, options: AgentConversationOptions, manager?: ContextManager) {
    this.manager = manager ?? new ContextManager(systemPrompt, ports);
    this.#ports = ports;
    this.#options = options;
  }

  /** A conversation from its snapshot; throws a `ContextError` (`invalid_snapshot`) naming what is wrong. */
  static restore(snapshot: unknown, ports: ContextPorts, options: AgentConversationOptions): AgentConversation {
    const s = snapshot as Partial<AgentConversationSnapshot> | null;
    if (typeof s !== 'object' || s === null || s.version !== 1) throw new ContextError('invalid_snapshot', 'not an agent conversation snapshot (version 1); nothing restored');
    const reminder = restoreReminderState(s.reminder);
    if ('kind' in reminder) throw new ContextError('invalid_snapshot', `${reminder.message}; nothing restored`);
    const p = s.pressure;
    if (typeof p !== 'object' || p === null || !isCount(p.usedTokens) || typeof p.reminderSent !== 'boolean' || typeof p.reminderQueued !== 'boolean' || typeof p.fallbackRan !== 'boolean') {
      throw new ContextError('invalid_snapshot', 'pressure state must be { usedTokens ≥ 0, reminderSent, reminderQueued, fallbackRan }; nothing restored');
    }
    const checkpoints = Array.isArray(s.checkpoints) ? s.checkpoints.map((c) => makeCheckpoint(c)) : [];
    const bad = checkpoints.find(isCheckpointError);
    if (bad) throw new ContextError('invalid_snapshot', `${bad.message}; nothing restored`);
    const manager = ContextManager.restore(s.context, ports);
    const conversation = new AgentConversation(s.context?.system.content ?? '', ports, options, manager);
    conversation.#reminder = reminder;
    conversation.#pressure = { ...p };
    conversation.#checkpoints = checkpoints as ContextCheckpoint[];
    if (s.events !== undefined && !(Array.isArray(s.events) && s.events.every((e) => typeof e === 'object' && e !== null && typeof (e as { kind?: unknown }).kind === 'string'))) {
      throw new ContextError('invalid_snapshot', 'events must be a list of conversation events; nothing restored');
    }
    conversation.#events = (s.events ?? []).slice(-EVENT_TRAIL_LIMIT);
    conversation.#shareCheckpoints();
    return conversation;
  }

  get config(): ContextConfig {
    return this.#options.config;
  }

  beginTurn(): TurnLease {
    return this.manager.beginTurn();
  }

  cancel(lease: TurnLease): void {
    this.manager.cancel(lease);
  }

  append(lease: TurnLease, group: GroupInput): TurnGroup {
    return this.manager.appendTurn(lease, group);
  }

  /**
   * The request for this turn: the pending transients (selected skills, memory, runtime state,
   * the owed workspace reminder, the queued pressure reminder) are injected and the messages built.
   * The workspace reminder's one-shot marker is consumed here, so it reaches exactly one request
   * (and a snapshot taken after it will not owe it again).
   */
  prepareRequest(input: RequestInput = {}): PreparedRequest {
    const m = this.manager;
    let skills: SkillSelection | undefined;
    if (input.selection && this.#options.skills) {
      const budget = input.selection.budget ?? Math.floor(this.config.maxTokens / 4);
      skills = m.selectSkills(this.#options.skills, { ...input.selection, budget });
      this.#lastSelection = skills;
    }
    if (input.memory?.trim()) m.injectTransient('memory', input.memory);
    if (input.runtime?.trim()) m.injectTransient('runtime', input.runtime);
    const owed = takeReminder(this.#reminder);
    if (owed.inject) {
      const compactionId = this.#reminder.pending ?? '';
      this.#reminder = owed.state;
      m.injectTransient('reminder', buildWorkspaceReminder(this.#options.workspaceFacts?.() ?? this.#emptyFacts()));
      this.#emit({ kind: 'workspace_reminder', compactionId, at: this.#ports.clock.now() });
    }
    if (this.#pressure.reminderQueued) {
      this.#pressure.reminderQueued = false;
      m.injectTransient('pressure', pressureReminderText({ usedTokens: this.#pressure.usedTokens, maxTotalTokens: this.#options.maxTotalTokens ?? 0 }));
    }
    const parts = m.measure();
    const messages = m.buildMessages();
    const transients = messages.filter((x): x is TransientMessage => 'kind' in x && x.kind === 'transient');
    const tokens = parts.system + parts.summary + parts.history + parts.transients;
    this.#lastRequestTokens = tokens;
    this.#lastRequest = { tokens, transients: transients.map((t) => ({ source: t.source, tokens: messageTokens(t, this.#ports.tokenizer) })) };
    return { messages, transients, skills, tokens, fits: tokens <= this.config.maxTokens };
  }

  /**
   * After a completed turn: count its tokens toward the task, then apply the policy in order:
   * native compaction when the runtime declares it and the reported input reached 85% of its
   * window; else the configured strategy when the conversation exceeds `max_tokens`; and task
   * pressure (85% of `max_total_tokens`): queue the one reminder and run the one fallback.
   * Returns the compaction events written by this call.
   */
  afterTurn(telemetry: TurnTelemetry = {}): Promise<CompactionEvent[]> {
    const run = this.#queue.then(() => this.#settle(telemetry));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #settle(t: TurnTelemetry): Promise<CompactionEvent[]> {
    const used = isCount(t.inputTokens) ? t.inputTokens + (isCount(t.outputTokens) ? t.outputTokens : 0) : this.#lastRequestTokens;
    this.#pressure.usedTokens += used;
    const out: CompactionEvent[] = [];
    const native = this.#options.native;
    if (native) {
      if (nativeCompactionDue({ nativeCompaction: true, turnCompleted: true, lastInputTokens: t.inputTokens, contextWindow: t.contextWindow })) {
        out.push(await this.#compact({ trigger: 'context_window', method: 'native', limit: t.contextWindow ?? 0 }, async () => this.#nativeCompaction(native)));
      }
      return out;
    }
    const { config } = this;
    if (this.manager.tokens() > config.maxTokens) {
      out.push(await this.#compact({ trigger: 'budget', method: config.strategy, limit: config.maxTokens }, () => this.#localCompaction(config.strategy)));
    }
    const cap = this.#options.maxTotalTokens;
    if (cap !== undefined) {
      const p = taskPressure({ usedTokens: this.#pressure.usedTokens, maxTotalTokens: cap, reminderSent: this.#pressure.reminderSent, fallbackRan: this.#pressure.fallbackRan, historyLength: this.#historyLength() });
      if (p.sendReminder) {
        this.#pressure.reminderSent = true;
        this.#pressure.reminderQueued = true;
        this.#emit({ kind: 'pressure_reminder', usedTokens: this.#pressure.usedTokens, maxTotalTokens: cap, at: this.#ports.clock.now() });
      }
      if (p.runFallback) {
        const event = await this.#compact({ trigger: 'task_pressure', method: 'fallback', limit: cap }, () => this.#localCompaction('fallback'));
        // A fallback that found too little to cut may run later; one that compacted or was denied is spent.
        if (event.outcome !== 'unchanged' && event.outcome !== 'failed') this.#pressure.fallbackRan = true;
        out.push(event);
      }
    }
    return out;
  }

  /** Ask the pre hooks, run `body`, write the event, run the post hooks; a denial changes nothing. */
  async #compact(plan: Omit<CompactionPlan, 'tokens'>, body: () => Promise<Omit<CompactionEvent, 'kind' | 'id' | 'trigger' | 'method' | 'at' | 'tokensBefore'>>): Promise<CompactionEvent> {
    const tokens = this.manager.tokens();
    const base = { kind: 'compaction' as const, id: this.#ports.ids.next('compaction'), trigger: plan.trigger, method: plan.method, tokensBefore: tokens };
    for (const hook of this.#options.preCompact ?? []) {
      let reason: string | undefined;
      try {
        reason = await hook.run({ ...plan, tokens });
      } catch (err) {
        reason = `pre-compact hook failed: ${errorText(err)}`;
      }
      if (reason !== undefined) {
        return this.#emit({ ...base, outcome: 'denied', reason, deniedBy: hook.name, tokensAfter: tokens, at: this.#ports.clock.now() });
      }
    }
    const result = await body();
    let event: CompactionEvent = { ...base, ...result, at: this.#ports.clock.now() };
    if (event.outcome === 'compacted') {
      this.#reminder = markCompacted(this.#reminder, event.id);
      if (event.checkpoint) this.#checkpoints = [...this.#checkpoints, event.checkpoint].slice(-CHECKPOINT_LIMIT);
      const failures: { name: string; message: string }[] = [];
      for (const hook of this.#options.postCompact ?? []) {
        try {
          await hook.run(event);
        } catch (err) {
          failures.push({ name: hook.name, message: errorText(err) });
        }
      }
      if (failures.length > 0) event = { ...event, postHookFailures: failures };
    }
    const emitted = this.#emit(event);
    if (event.checkpoint) this.#shareCheckpoints();
    return emitted;
  }

  /**
   * Memory stays bounded over a long run (`[checkpoints-bounded]`): an event in the trail holds its
   * checkpoint only while that checkpoint is one of the kept ones (the same value, not a copy);
   * older events keep their figures and say `checkpointReleased`. Two hundred compaction events
   * each holding a multi-kilobyte summary were most of a 50-agent soak's heap growth.
   */
  #shareCheckpoints(): void {
    const held = new Set(this.#checkpoints);
    let kept: Map<string, ContextCheckpoint> | undefined;
    this.#events = this.#events.map((e) => {
      if (e.kind !== 'compaction' || !e.checkpoint || held.has(e.checkpoint)) return e;
      kept ??= new Map(this.#checkpoints.map((k) => [checkpointKey(k), k]));
      const same = kept.get(checkpointKey(e.checkpoint));
      if (same) return { ...e, checkpoint: same };
      const { checkpoint: _released, ...rest } = e;
      return { ...rest, checkpointReleased: true };
    });
  }

  async #localCompaction(method: 'truncate' | 'compress' | 'fallback') {
    const m = this.manager;
    const { config } = this;
    let audit: Audit;
    if (method === 'truncate') audit = m.truncateToBudget(config.maxTokens);
    else if (method === 'compress') {
      audit = await m.replacePrefixWithSummary(this.#options.summarizer, { maxTokens: config.maxTokens, preserveRecentTurns: config.preserveRecentTurns, summaryMaxTokens: config.summaryMaxTokens });
    } else {
      // The fallback halves the history with a bounded summary made without a model call.
      const target = Math.max(1, Math.floor(m.tokens() / 2));
      audit = await m.replacePrefixWithSummary(fallbackSummarizer(this.#ports), { maxTokens: target, preserveRecentTurns: Math.min(config.preserveRecentTurns, 4), summaryMaxTokens: config.summaryMaxTokens });
    }
    const outcome = audit.outcome === 'applied' ? 'compacted' : audit.outcome;
    const summary = m.snapshot().summary;
    let checkpoint: ContextCheckpoint | undefined;
    let checkpointError: CheckpointError | undefined;
    // A checkpoint exists only for a compaction that wrote a summary (a truncation keeps no summary).
    if (outcome === 'compacted' && method !== 'truncate' && summary) {
      const made = makeCheckpoint({
        sourceTurnIds: summary.sourceTurnIds,
        retainedTurnIds: [...new Set(m.groups().map((g) => g.turnId))],
        telemetryBefore: { tokens: audit.tokensBefore },
        telemetryAfter: { tokens: audit.tokensAfter },
        summary: summary.content,
      });
      if (isCheckpointError(made)) checkpointError = made;
      else checkpoint = made;
    }
    return {
      outcome: outcome as CompactionEvent['outcome'],
      reason: audit.reason,
      tokensAfter: m.tokens(),
      audit,
      ...(checkpoint ? { checkpoint } : {}),
      ...(checkpointError ? { checkpointError } : {}),
    };
  }

  async #nativeCompaction(native: NativeCompactor) {
    const tokens = this.manager.tokens();
    let answer: { checkpoint?: ContextCheckpoint };
    try {
      answer = await native.compact();
    } catch (err) {
      return { outcome: 'failed' as const, reason: `native compaction failed: ${errorText(err)}`, tokensAfter: tokens };
    }
    // `[no-fabricated-checkpoint]`: only the runtime's own checkpoint is recorded, checked, never repaired.
    const provided = answer?.checkpoint;
    const made = provided === undefined ? undefined : makeCheckpoint(provided);
    return {
      outcome: 'compacted' as const,
      reason: provided === undefined ? 'the runtime compacted natively and returned no checkpoint' : 'the runtime compacted natively',
      tokensAfter: tokens,
      ...(made && !isCheckpointError(made) ? { checkpoint: made } : {}),
      ...(made && isCheckpointError(made) ? { checkpointError: made } : {}),
    };
  }

  #historyLength(): number {
    return this.manager.groups().reduce((n, g) => n + g.messages.length, 0);
  }

  #emptyFacts(): WorkspaceFacts {
    return { changedFiles: [], lastCheck: undefined, recentPaths: [], allowedPaths: [], verification: undefined, remainingSteps: undefined, tokenLimit: this.config.maxTokens };
  }

  #emit<E extends ConversationEvent>(event: E): E {
    this.#events = [...this.#events, event].slice(-EVENT_TRAIL_LIMIT);
    try {
      this.#options.onEvent?.(event);
    } catch {
      // A failing listener must not undo or block a conversation change that already happened.
    }
    return event;
  }

  /** What the last prepared request carried: its tokens and its transients by source (none before the first). */
  lastRequest(): { tokens: number; transients: { source: TransientMessage['source']; tokens: number }[] } | undefined {
    return this.#lastRequest && { tokens: this.#lastRequest.tokens, transients: this.#lastRequest.transients.map((t) => ({ ...t })) };
  }

  /** The skills chosen for the last request, if any were selected. */
  lastSkillSelection(): SkillSelection | undefined {
    return this.#lastSelection;
  }

  events(): ConversationEvent[] {
    return [...this.#events];
  }

  checkpoints(): ContextCheckpoint[] {
    return [...this.#checkpoints];
  }

  /** Task tokens counted so far and whether the one-shot pressure actions are spent. */
  pressure(): Readonly<AgentConversationSnapshot['pressure']> {
    return { ...this.#pressure };
  }

  /** Whether a workspace reminder is owed to the next request. */
  reminderOwed(): boolean {
    return this.#reminder.pending !== null;
  }

  snapshot(): AgentConversationSnapshot {
    return { version: 1, context: this.manager.snapshot(), reminder: this.#reminder, pressure: { ...this.#pressure }, checkpoints: [...this.#checkpoints], events: [...this.#events] };
  }
}

/**
 * The fallback as a summarizer port: {@link buildFallbackSummary} of the prefix (the previous
 * summary folded in as one line), shrunk until it fits the token cap. Deterministic, no model call.
 */
export function fallbackSummarizer(ports: Pick<ContextPorts, 'tokenizer'>): Summarizer {
  return {
    summarize({ previousSummary, messages, maxTokens }) {
      // "Protect the first two": the system prompt always stays; the first user message (the task)
      // is carried at the head of the summary, clipped, since the summary replaces it in the history.
      const first = messages[0]?.role === 'user' ? `Task (first user message, clipped): ${clipField(messages[0].content, 600)}\n` : '';
      const previous = first + (previousSummary ? `Earlier summary (clipped): ${clipField(previousSummary, 400)}\n` : '');
      for (let maxChars = DEFAULT_FALLBACK_CAPS.maxChars; maxChars >= 100; maxChars = Math.floor(maxChars * 0.7)) {
        const text = previous + buildFallbackSummary(messages, { ...DEFAULT_FALLBACK_CAPS, maxChars });
        if (ports.tokenizer.count(text) <= maxTokens) return text;
      }
      throw new Error(`the fallback summary cannot fit ${maxTokens} tokens`);
    },
  };
}
