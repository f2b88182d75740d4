import type { Clock } from '../ports/Clock';
import type { IdSource } from '../ports/IdSource';
import type { Tokenizer } from '../tokens/Tokenizer';
import { AUDIT_TRAIL_LIMIT, type Audit, type AuditOperation } from './ContextAudit';
import { ContextError } from './ContextError';
import { CONTEXT_SNAPSHOT_VERSION, readSnapshot, type ContextSnapshot } from './ContextSnapshot';
import { chooseCut } from './chooseCut';
import type { Message, SummaryMessage, SystemMessage, TransientMessage, TurnGroup, UserMessage } from './Message';
import { freezeAudit, freezeGroup, freezeMessage } from './freezeValues';
import { MESSAGE_OVERHEAD_TOKENS, messageTokens } from './messageTokens';
import { readGroup, withId, type GroupInput } from './readGroup';
import type { Summarizer } from './Summarizer';
import type { TurnLease } from './TurnLease';
import type { SkillRegistry } from '../skills/SkillRegistry';
import type { SkillSelection } from '../skills/selectSkills';
import type { SelectionContext } from '../skills/SkillSelector';
import { renderSkills } from '../skills/renderSkills';

/** Everything the manager needs from outside: tokens, ids and time, injected so runs are deterministic. */
export interface ContextPorts {
  tokenizer: Tokenizer;
  ids: IdSource;
  clock: Clock;
}

/** `buildMessages` options: `transients: false` builds without the pending transients and keeps them pending. */
export interface BuildOptions {
  transients?: boolean;
}

/** `replacePrefixWithSummary` options, in the names of the `[context]` configuration. */
export interface CompressOptions {
  maxTokens: number;
  preserveRecentTurns: number;
  summaryMaxTokens: number;
}

/** Tokens of each part of the next request; the budget counts `system + summary + history`. */
export interface ContextTokens {
  system: number;
  summary: number;
  transients: number;
  history: number;
}

/**
 * The fixed user message that opens a kept history whose first group is an assistant message (a cut
 * inside a long autonomous run): Anthropic needs the history to start with a user message, and a
 * fixed text keeps the prefix stable from request to request (`[resume-bridge]`).
 */
export const RESUME_BRIDGE_TEXT = '[Earlier turns of this conversation were removed to fit the context budget; the summary above, if any, stands for them. Continue from the messages below.]';

const TRANSIENT_SOURCES: readonly TransientMessage['source'][] = ['memory', 'skills', 'runtime', 'reminder', 'pressure'];
const MAX_ID_TRIES = 100_000;

const idsOf = (a: Audit): string[] => [...a.removedMessageIds, ...a.removedGroupIds, ...a.removedTurnIds, ...a.addedMessageIds];

/** Adds `delta` to the reference count of `key`, dropping it at zero. */
function countRef(refs: Map<string, number>, key: string, delta: number): void {
  const n = (refs.get(key) ?? 0) + delta;
  if (n > 0) refs.set(key, n);
  else refs.delete(key);
}

const unique = (ids: readonly string[]): string[] => [...new Set(ids)];
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/**
 * The single owner and mutation boundary of one conversation. It holds exactly one canonical
 * system prompt, the history as atomic turn groups, at most one summary, and transients for the
 * next request only; nothing else can change them. Invariants after every operation: the built
 * messages pass both providers' order checks, no tool result is orphaned and no call unanswered,
 * no transient is in `snapshot()`, and every destructive change left an {@link Audit}. A refused
 * operation throws a {@link ContextError} and changes nothing.
 */
export class ContextManager {
  readonly #ports: ContextPorts;
  #system: SystemMessage;
  #systemTokens: number;
  #summary: SummaryMessage | null = null;
  #summaryTokens = 0;
  #groups: TurnGroup[] = [];
  readonly #groupTokens = new Map<string, number>();
  #historyTokens = 0;
  readonly #bridgeTokens: number;
  #pending: TransientMessage[] = [];
  #audits: Audit[] = [];
  #lastTurn = 0;
  #lease: TurnLease | undefined;
  #cancelled = false;
  readonly #issued = new WeakSet<TurnLease>();
  #revision = 0;
  readonly #messageIds = new Set<string>();
  readonly #callIds = new Set<string>();
  readonly #turnRefs = new Map<string, number>();
  /** Ids the audit trail names: never reissued while an audit names them, so the trail stays unambiguous. */
  readonly #auditRefs = new Map<string, number>();

  /** A new conversation with `systemPrompt` as its one canonical system message (non-empty). */
  constructor(systemPrompt: string, ports: ContextPorts) {
    if (typeof systemPrompt !== 'string' || systemPrompt.trim() === '') throw new ContextError('invalid_argument', '[one-system-prompt] the canonical system prompt must be non-empty text');
    this.#ports = ports;
    this.#system = freezeMessage({ id: this.#freshId('system', (id) => this.#messageIds.has(id)), role: 'system', kind: 'canonical', content: systemPrompt });
    this.#systemTokens = messageTokens(this.#system, ports.tokenizer);
    this.#bridgeTokens = messageTokens({ id: 'resume', role: 'user', content: RESUME_BRIDGE_TEXT }, ports.tokenizer);
    this.#messageIds.add(this.#system.id);
  }

  /** A manager holding a persisted conversation; throws `invalid_snapshot` (listing every problem) for data that breaks an invariant. */
  static restore(snapshot: unknown, ports: ContextPorts): ContextManager {
    const read = readSnapshot(snapshot);
    if (!read.ok) throw new ContextError('invalid_snapshot', `snapshot refused, nothing restored: ${read.problems.join('; ')}`, read.problems);
    const s = read.snapshot;
    const manager = new ContextManager(s.system.content, ports);
    manager.#messageIds.clear();
    manager.#system = freezeMessage(s.system);
    manager.#messageIds.add(s.system.id);
    manager.#setSummary(s.summary && freezeMessage(s.summary));
    for (const g of s.groups) manager.#addGroup(freezeGroup(g));
    for (const a of s.audits) manager.#record(a);
    manager.#lastTurn = s.lastTurn;
    return manager;
  }

  /** Bumps on every change of system, summary or history: the guard that keeps an async compression from clobbering. */
  get revision(): number {
    return this.#revision;
  }

  /** Start a turn: the returned lease is now the only one that may append; every older lease is stale. */
  beginTurn(): TurnLease {
    const turnId = this.#freshId('turn', (id) => this.#turnRefs.has(id) || this.#lease?.turnId === id || this.#summary?.sourceTurnIds.includes(id) === true);
    const lease: TurnLease = Object.freeze({ turn: ++this.#lastTurn, turnId });
    this.#issued.add(lease);
    this.#lease = lease;
    this.#cancelled = false;
    return lease;
  }

  /** Cancel a turn: its lease can no longer append. Cancelling a stale or unknown lease does nothing. */
  cancel(lease: TurnLease): void {
    if (lease === this.#lease) this.#cancelled = true;
  }

  /**
   * Append one group under `lease`: a user message alone, or an assistant message with all its tool
   * results. Refused, with nothing changed, for a stale, cancelled or foreign lease (`[turn-lease]`)
   * or a malformed group (`[group-atomic]`: system messages, results without calls, calls without
   * results, duplicate ids, a tool message outside an assistant group, history not starting with a
   * user message). Returns the stored group (frozen; ids filled in from the id port).
   */
  appendTurn(lease: TurnLease, group: GroupInput): TurnGroup {
    this.#checkLease(lease);
    const read = readGroup(group, { messageIds: this.#messageIds, callIds: this.#callIds, first: this.#groups.length === 0 });
    if (!read.ok) throw new ContextError('malformed_group', `[group-atomic] group refused, nothing appended: ${read.problems.join('; ')}`, read.problems);
    const given = new Set(read.messages.flatMap((m) => (m.id === undefined ? [] : [m.id])));
    const taken = (id: string) => this.#messageIds.has(id) || given.has(id);
    const messages = read.messages.map((m) => {
      const id = m.id ?? this.#freshId('msg', taken);
      given.add(id);
      return withId(m, id);
    });
    const stored = freezeGroup({ id: this.#freshId('group', (id) => this.#groupTokens.has(id)), turnId: lease.turnId, messages });
    this.#addGroup(stored);
    this.#revision++;
    return stored;
  }

  /** Queue content for the next `buildMessages` only (`[transient-not-persisted]`): it never enters history, snapshots or audits. */
  injectTransient(source: TransientMessage['source'], content: string): TransientMessage {
    if (!TRANSIENT_SOURCES.includes(source)) throw new ContextError('invalid_argument', `unknown transient source ${JSON.stringify(source)}; use one of ${TRANSIENT_SOURCES.join(', ')}`);
    if (typeof content !== 'string' || content.trim() === '') throw new ContextError('invalid_argument', `transient ${source} content must be non-empty text`);
    const message = freezeMessage<TransientMessage>({ id: this.#freshId('transient', (id) => this.#messageIds.has(id)), role: 'user', kind: 'transient', source, content });
    this.#messageIds.add(message.id);
    this.#pending.push(message);
    return message;
  }

  /**
   * Select the skills for this turn from `registry` and inject the rendered selection as the turn's
   * `skills` transient (`[skill-select]`): only selected skills enter the request, and like every
   * transient they reach the next request only. Returns the whole selection (selected, skipped with
   * reasons, errors) for the audit and the inspector; injects nothing when nothing is selected.
   */
  selectSkills(registry: SkillRegistry, context: SelectionContext): SkillSelection {
    const selection = registry.select(context);
    const text = renderSkills(selection.selected);
    if (text !== '') this.injectTransient('skills', text);
    return selection;
  }

  /**
   * The request's messages: canonical system, summary (if any), history, then the pending
   * transients at the tail (`[transient-tail]`), so the cached prefix is the same from request to
   * request. With transients (the default) the pending ones are consumed: they reach exactly one request.
   */
  buildMessages(options: BuildOptions = {}): Message[] {
    const withTransients = options.transients !== false;
    const out: Message[] = [this.#system];
    if (this.#summary) out.push(this.#summary);
    const bridge = this.#bridge();
    if (bridge) out.push(bridge);
    for (const g of this.#groups) out.push(...g.messages);
    if (withTransients) {
      out.push(...this.#pending);
      for (const t of this.#pending) this.#messageIds.delete(t.id);
      this.#pending = [];
    }
    return out;
  }

  /** Tokens of each part of the next request, with the injected tokenizer. */
  measure(): ContextTokens {
    const transients = this.#pending.reduce((n, t) => n + messageTokens(t, this.#ports.tokenizer), 0);
    return { system: this.#systemTokens, summary: this.#summaryTokens, transients, history: this.#historyTokens + this.#bridgeCost() };
  }

  /** Budgeted tokens: system prompt, summary and history (what truncation and compression bring under the budget). */
  tokens(): number {
    return this.#systemTokens + this.#summaryTokens + this.#historyTokens + this.#bridgeCost();
  }

  /** The resume bridge that opens the history in built requests, or null when the history starts with a user message. */
  resumeBridge(): UserMessage | null {
    return this.#bridge();
  }

  /** The resume bridge when the kept history starts with an assistant group; derived, never stored. */
  #bridge(): UserMessage | null {
    const head = this.#groups[0];
    return head && head.messages[0]?.role !== 'user' ? freezeMessage<UserMessage>({ id: `resume:${head.id}`, role: 'user', content: RESUME_BRIDGE_TEXT }) : null;
  }

  #bridgeCost(): number {
    const head = this.#groups[0];
    return head && head.messages[0]?.role !== 'user' ? this.#bridgeTokens : 0;
  }

  /** The history groups, oldest first (frozen). */
  groups(): TurnGroup[] {
    return [...this.#groups];
  }

  /** The trail of applied destructive operations, oldest first, at most {@link AUDIT_TRAIL_LIMIT} (frozen values). */
  audits(): Audit[] {
    return [...this.#audits];
  }

  /**
   * Drop the oldest whole turns until system, summary and history fit `maxTokens`
   * (`[truncate-newest]`). Cuts fall between turns; a kept history that starts with an assistant
   * group is opened by the resume bridge (`[resume-bridge]`). The newest turn is always kept, so
   * when even it does not fit it stays and the audit says `overBudget`.
   */
  truncateToBudget(maxTokens: number): Audit {
    if (!isCount(maxTokens)) throw new ContextError('invalid_argument', `maxTokens must be a non-negative integer, got ${String(maxTokens)}`);
    const before = this.tokens();
    if (before <= maxTokens) return this.#audit('truncate', 'unchanged', `fits: ${before} ≤ ${maxTokens} tokens`, before);
    const cut = chooseCut({ groups: this.#cutGroups(), fixedTokens: this.#systemTokens + this.#summaryTokens, maxTokens, keepTurns: 0, bridgeTokens: this.#bridgeTokens });
    if (cut.index === 0) return this.#audit('truncate', 'unchanged', `over budget (${before} > ${maxTokens}) but nothing can be dropped: the newest turn is always kept`, before, { overBudget: true });
    const removed = this.#removePrefix(cut.index);
    this.#revision++;
    const after = this.tokens();
    const reason = `${before} > ${maxTokens} tokens: dropped the ${removed.length} oldest groups${after > maxTokens ? '; still over budget with only the newest turn left' : ''}`;
    return this.#record(this.#audit('truncate', 'applied', reason, before, { removed, overBudget: after > maxTokens }));
  }

  /**
   * Replace the oldest complete prefix that must go, and the previous summary, by ONE new summary
   * (`[compress-atomic]`, `[one-summary]`), keeping at least `preserveRecentTurns` turns verbatim.
   * The cut leaves room for a summary of the full `summaryMaxTokens`, so the result fits the budget
   * whatever the summarizer returns within its cap.
   * The state is untouched until the summarizer answers; a throw, a blank or an over-long answer, or
   * any change of the conversation meanwhile (checked by revision) leaves everything as it was and
   * returns a `failed` audit, so a retry is always safe.
   */
  async replacePrefixWithSummary(summarizer: Summarizer, options: CompressOptions): Promise<Audit> {
    const { maxTokens, preserveRecentTurns, summaryMaxTokens } = options;
    if (!isCount(maxTokens) || !isCount(preserveRecentTurns) || !isCount(summaryMaxTokens) || summaryMaxTokens < 1) {
      throw new ContextError('invalid_argument', `compress needs non-negative integers and summaryMaxTokens ≥ 1, got ${JSON.stringify(options)}`);
    }
    const before = this.tokens();
    if (before <= maxTokens) return this.#audit('compress', 'unchanged', `fits: ${before} ≤ ${maxTokens} tokens`, before);
    const reserve = summaryMaxTokens + MESSAGE_OVERHEAD_TOKENS;
    const cut = chooseCut({ groups: this.#cutGroups(), fixedTokens: this.#systemTokens + reserve, maxTokens, keepTurns: preserveRecentTurns, bridgeTokens: this.#bridgeTokens });
    if (cut.index === 0) return this.#audit('compress', 'unchanged', `over budget (${before} > ${maxTokens}) but nothing can be compressed: the newest ${Math.max(1, preserveRecentTurns)} turns stay verbatim`, before, { overBudget: true });
    const revision = this.#revision;
    const prefix = this.#groups.slice(0, cut.index);
    const previous = this.#summary;
    let text: unknown;
    try {
      text = await summarizer.summarize({ ...(previous ? { previousSummary: previous.content } : {}), messages: prefix.flatMap((g) => g.messages), maxTokens: summaryMaxTokens });
    } catch (error) {
      return this.#audit('compress', 'failed', `summarizer failed (${error instanceof Error ? error.message : String(error)}); history unchanged`, before);
    }
    if (revision !== this.#revision) return this.#audit('compress', 'failed', `the conversation changed while summarizing (revision ${revision} → ${this.#revision}); nothing replaced, retry`, before);
    const content = typeof text === 'string' ? text.trim() : '';
    if (content === '') return this.#audit('compress', 'failed', 'summarizer returned an empty summary; history unchanged', before);
    const summaryTokens = this.#ports.tokenizer.count(content);
    if (summaryTokens > summaryMaxTokens) return this.#audit('compress', 'failed', `summary of ${summaryTokens} tokens exceeds summaryMaxTokens ${summaryMaxTokens}; history unchanged`, before);
    const removed = this.#removePrefix(cut.index);
    const sourceTurnIds = unique([...(previous?.sourceTurnIds ?? []), ...removed.map((g) => g.turnId)]);
    const id = this.#freshId('summary', (i) => this.#messageIds.has(i));
    this.#setSummary(freezeMessage<SummaryMessage>({ id, role: 'system', kind: 'summary', content, sourceTurnIds }));
    this.#revision++;
    const after = this.tokens();
    const reason = `${before} > ${maxTokens} tokens: ${removed.length} oldest groups${previous ? ' and the previous summary' : ''} replaced by one summary of ${summaryTokens} tokens`;
    return this.#record(this.#audit('compress', 'applied', reason, before, { removed, previous, added: [id], overBudget: after > maxTokens }));
  }

  /**
   * Plain JSON-safe data for persistence and the contract: system, summary, groups, audits; never
   * transients. The messages, groups and audits in it are the manager's own frozen values (shared,
   * not copied, so a snapshot per turn stays cheap); copy before editing.
   */
  snapshot(): ContextSnapshot {
    return { schemaVersion: CONTEXT_SNAPSHOT_VERSION, system: this.#system, summary: this.#summary, groups: [...this.#groups], audits: [...this.#audits], lastTurn: this.#lastTurn };
  }

  #checkLease(lease: TurnLease): void {
    if (lease !== this.#lease) {
      if (!this.#issued.has(lease)) throw new ContextError('foreign_lease', '[turn-lease] this lease was not issued by this conversation (or predates a restore); begin a turn to get one. Nothing appended.');
      throw new ContextError('stale_lease', `[turn-lease] turn ${lease.turn} is stale: turn ${this.#lastTurn} owns the conversation now. Nothing appended.`);
    }
    if (this.#cancelled) throw new ContextError('cancelled_lease', `[turn-lease] turn ${lease.turn} was cancelled; begin a new turn to append. Nothing appended.`);
  }

  #freshId(kind: string, taken: (id: string) => boolean): string {
    for (let i = 0; i < MAX_ID_TRIES; i++) {
      const id = this.#ports.ids.next(kind);
      if (typeof id === 'string' && id !== '' && !taken(id) && !this.#auditRefs.has(id)) return id;
    }
    throw new Error(`the id source returned no fresh ${kind} id in ${MAX_ID_TRIES} tries`);
  }

  #cutGroups() {
    return this.#groups.map((g) => ({ head: g.messages[0]?.role ?? 'user', tokens: this.#groupTokens.get(g.id) ?? 0, turnId: g.turnId }) as const);
  }

  #addGroup(group: TurnGroup): void {
    const tokens = group.messages.reduce((n, m) => n + messageTokens(m, this.#ports.tokenizer), 0);
    this.#groups.push(group);
    this.#groupTokens.set(group.id, tokens);
    this.#historyTokens += tokens;
    countRef(this.#turnRefs, group.turnId, 1);
    for (const m of group.messages) {
      this.#messageIds.add(m.id);
      if (m.role === 'assistant') for (const c of m.toolCalls) this.#callIds.add(c.id);
    }
  }

  #removePrefix(count: number): TurnGroup[] {
    const removed = this.#groups.slice(0, count);
    this.#groups = this.#groups.slice(count);
    for (const g of removed) {
      this.#historyTokens -= this.#groupTokens.get(g.id) ?? 0;
      this.#groupTokens.delete(g.id);
      countRef(this.#turnRefs, g.turnId, -1);
      for (const m of g.messages) {
        this.#messageIds.delete(m.id);
        if (m.role === 'assistant') for (const c of m.toolCalls) this.#callIds.delete(c.id);
      }
    }
    return removed;
  }

  #setSummary(summary: SummaryMessage | null): void {
    if (this.#summary) this.#messageIds.delete(this.#summary.id);
    this.#summary = summary;
    this.#summaryTokens = summary ? messageTokens(summary, this.#ports.tokenizer) : 0;
    if (summary) this.#messageIds.add(summary.id);
  }

  #audit(
    operation: AuditOperation,
    outcome: Audit['outcome'],
    reason: string,
    tokensBefore: number,
    detail: { removed?: TurnGroup[]; previous?: SummaryMessage | null; added?: string[]; overBudget?: boolean } = {},
  ): Audit {
    const removed = detail.removed ?? [];
    const audit: Audit = {
      operation,
      outcome,
      removedMessageIds: [...(detail.previous ? [detail.previous.id] : []), ...removed.flatMap((g) => g.messages.map((m) => m.id))],
      removedGroupIds: removed.map((g) => g.id),
      removedTurnIds: unique(removed.map((g) => g.turnId)),
      addedMessageIds: detail.added ?? [],
      reason,
      tokensBefore,
      tokensAfter: this.tokens(),
      at: this.#ports.clock.now(),
    };
    if (detail.overBudget !== undefined) audit.overBudget = detail.overBudget;
    return audit;
  }

  #record(audit: Audit): Audit {
    const kept = freezeAudit({ ...audit, removedMessageIds: [...audit.removedMessageIds], removedGroupIds: [...audit.removedGroupIds], removedTurnIds: [...audit.removedTurnIds], addedMessageIds: [...audit.addedMessageIds] });
    const evicted = this.#audits.length >= AUDIT_TRAIL_LIMIT ? this.#audits.splice(0, this.#audits.length - AUDIT_TRAIL_LIMIT + 1) : [];
    this.#audits.push(kept);
    for (const a of evicted) for (const id of idsOf(a)) countRef(this.#auditRefs, id, -1);
    for (const id of idsOf(kept)) countRef(this.#auditRefs, id, 1);
    return audit;
  }
}
