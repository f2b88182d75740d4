import { join } from 'node:path';
import type { AgentRole, ConversationDto, SkillsDto } from '../contract';
import { AgentConversation, type ConversationEvent, type RequestInput } from '../conversation/AgentConversation';
import type { ContextConfig } from '../conversation/contextConfig';
import { extractiveSummarizer } from '../conversation/extractiveSummarizer';
import type { Message } from '../conversation/Message';
import { messageTokens } from '../conversation/messageTokens';
import type { GroupInput } from '../conversation/readGroup';
import type { Clock } from '../ports/Clock';
import { sequentialIds } from '../ports/IdSource';
import { parseSkillFile } from '../skills/parseSkillFile';
import { isSkillError, type SkillError } from '../skills/SkillError';
import type { Skill } from '../skills/SkillFile';
import { SkillRegistry } from '../skills/SkillRegistry';
import type { Tokenizer } from '../tokens/Tokenizer';
import { loadSkillFiles } from './loadSkillFiles';
import { systemPromptOf } from '../runtime/AgentRuntime';

/** The agent a conversation belongs to, as the system prompt states it. */
export interface ConversationAgent {
  agentId: string;
  role: AgentRole;
  task: string;
}

/** One turn of an agent: its groups in order (a user message first on the first turn) and what the request adds. */
export interface AgentTurn {
  groups: GroupInput[];
  request: RequestInput;
  /** Provider usage of the turn, when known (task pressure and native compaction read it). */
  telemetry?: { inputTokens?: number; outputTokens?: number; contextWindow?: number };
}

export interface AgentConversationsOptions {
  tokenizer: Tokenizer;
  clock: Clock;
  config: ContextConfig;
  /** The shipped skills (`resources/skills`); absent: none. */
  shippedSkillsDir?: string;
  /** The workspace folder whose `.strata/skills/**\/SKILL.md` are its own skills; absent: none. */
  workspaceDir?: string;
  /** A change to announce (a turn, a compaction, a reset). */
  onChange?: (agentId: string, change: 'turn' | 'compaction' | 'reset', tokens: number) => void;
  /** A conversation event worth a log line (compactions and reminders). */
  onEvent?: (agentId: string, event: ConversationEvent) => void;
}

type Loaded = { skill: Skill; scope: 'shipped' | 'workspace' };

/**
 * The host's conversations, one per agent, and the skills they select from. Every operation goes
 * through one queue, so turns, compactions (which may await a summarizer) and resets apply in the
 * order they were asked for, and a reader waits for the queue to drain before it looks: what it
 * sees is always a state between two operations, never one half done.
 */
export class AgentConversations {
  readonly #options: AgentConversationsOptions;
  readonly #registry: SkillRegistry;
  #loaded: Loaded[] = [];
  #skillErrors: SkillError[] = [];
  #conversations = new Map<string, AgentConversation>();
  #lastRequest = new Map<string, NonNullable<ConversationDto['lastRequest']>>();
  #queue: Promise<void>;
  #failures: unknown[] = [];

  constructor(options: AgentConversationsOptions) {
    this.#options = options;
    this.#registry = new SkillRegistry((text) => options.tokenizer.count(text));
    this.#queue = this.#loadSkills();
  }

  /** Load shipped skills, then the workspace's own as a second set, so a broken workspace skill never hides the shipped ones. */
  async #loadSkills(): Promise<void> {
    const sets: [string | undefined, Loaded['scope']][] = [
      [this.#options.shippedSkillsDir, 'shipped'],
      [this.#options.workspaceDir && join(this.#options.workspaceDir, '.strata', 'skills'), 'workspace'],
    ];
    for (const [dir, scope] of sets) {
      if (!dir) continue;
      const { files, errors } = await loadSkillFiles([dir]);
      const parsed = files.map((f) => parseSkillFile(f.text, f.origin));
      const skills = parsed.filter((p): p is Skill => !isSkillError(p));
      const refused = this.#registry.add(skills);
      this.#skillErrors.push(...errors, ...parsed.filter(isSkillError), ...refused);
      if (refused.length === 0) this.#loaded.push(...skills.map((skill) => ({ skill, scope })));
    }
  }

  #enqueue(op: () => Promise<void> | void): Promise<void> {
    const run = this.#queue.then(op);
    this.#queue = run.catch((err: unknown) => {
      this.#failures.push(err);
    });
    return run;
  }

  /** Resolves when every operation asked for so far has applied. */
  idle(): Promise<void> {
    return this.#queue;
  }

  /** Operations that threw (a malformed turn is refused by the conversation and reported here, never half applied). */
  failures(): unknown[] {
    return [...this.#failures];
  }

  /** Forget every conversation (the demo scenario starting over). */
  reset(): Promise<void> {
    return this.#enqueue(() => {
      const agents = [...this.#conversations.keys()];
      this.#conversations = new Map();
      this.#lastRequest = new Map();
      for (const agentId of agents) this.#options.onChange?.(agentId, 'reset', 0);
    });
  }

  /** Apply one turn of `agent`: append its groups under one lease, build the request, then settle the policy. */
  turn(agent: ConversationAgent, turn: AgentTurn): Promise<void> {
    return this.#enqueue(async () => {
      const conversation = this.#conversationOf(agent);
      const lease = conversation.beginTurn();
      for (const group of turn.groups) conversation.append(lease, group);
      const request = conversation.prepareRequest(turn.request);
      this.#lastRequest.set(agent.agentId, {
        tokens: request.tokens,
        transients: request.transients.map((t) => ({ source: t.source, tokens: messageTokens(t, this.#options.tokenizer) })),
      });
      this.#options.onChange?.(agent.agentId, 'turn', conversation.manager.tokens());
      const compactions = await conversation.afterTurn(turn.telemetry);
      if (compactions.some((c) => c.outcome === 'compacted')) this.#options.onChange?.(agent.agentId, 'compaction', conversation.manager.tokens());
    });
  }

  #conversationOf(agent: ConversationAgent): AgentConversation {
    const existing = this.#conversations.get(agent.agentId);
    if (existing) return existing;
    const { tokenizer, clock, config } = this.#options;
    const created = new AgentConversation(systemPromptOf({ agentId: agent.agentId, role: agent.role, task: agent.task }), { tokenizer, clock, ids: sequentialIds() }, {
      config,
      summarizer: extractiveSummarizer(tokenizer),
      skills: this.#registry,
      onEvent: (event) => this.#options.onEvent?.(agent.agentId, event),
    });
    this.#conversations.set(agent.agentId, created);
    return created;
  }

  /** The agent's conversation as a DTO, after pending operations; undefined before its first turn. */
  async conversation(agentId: string): Promise<ConversationDto | undefined> {
    await this.idle();
    const c = this.#conversations.get(agentId);
    if (!c) return undefined;
    const snap = c.snapshot();
    const parts = c.manager.measure();
    const tokenizer = this.#options.tokenizer;
    return {
      agentId,
      config: { strategy: c.config.strategy, maxTokens: c.config.maxTokens, preserveRecentTurns: c.config.preserveRecentTurns, summaryMaxTokens: c.config.summaryMaxTokens },
      tokens: { system: parts.system, summary: parts.summary, history: parts.history, total: parts.system + parts.summary + parts.history },
      system: { id: snap.context.system.id, content: snap.context.system.content },
      summary: snap.context.summary ? { id: snap.context.summary.id, content: snap.context.summary.content, sourceTurnIds: [...snap.context.summary.sourceTurnIds] } : null,
      resumeBridge: ((b) => (b ? { id: b.id, content: b.content } : null))(c.manager.resumeBridge()),
      groups: snap.context.groups.map((g) => ({ id: g.id, turnId: g.turnId, tokens: g.messages.reduce((n, m) => n + messageTokens(m, tokenizer), 0), messages: g.messages.map(toMessageDto) })),
      audits: snap.context.audits.map((a) => ({ ...a, removedMessageIds: [...a.removedMessageIds], removedGroupIds: [...a.removedGroupIds], removedTurnIds: [...a.removedTurnIds], addedMessageIds: [...a.addedMessageIds] })),
      events: snap.events.map((e) =>
        e.kind === 'compaction'
          ? { kind: e.kind, at: e.at, trigger: e.trigger, method: e.method, outcome: e.outcome, reason: e.reason, tokensBefore: e.tokensBefore, tokensAfter: e.tokensAfter, ...(e.deniedBy ? { deniedBy: e.deniedBy } : {}) }
          : { kind: e.kind, at: e.at },
      ),
      checkpoints: snap.checkpoints.map((k) => ({ ...k, sourceTurnIds: [...k.sourceTurnIds], retainedTurnIds: [...k.retainedTurnIds], telemetryBefore: { ...k.telemetryBefore }, telemetryAfter: { ...k.telemetryAfter } })),
      lastRequest: this.#lastRequest.get(agentId) ?? null,
    };
  }

  /** Skills loaded, refused, and selected per agent, after pending operations. */
  async skills(): Promise<SkillsDto> {
    await this.idle();
    const errorDto = (e: SkillError) => ({ kind: e.kind, message: e.message, ...(e.origin ? { origin: e.origin } : {}), ...(e.skill ? { skill: e.skill } : {}), ...(e.key ? { key: e.key } : {}) });
    return {
      loaded: this.#loaded.map(({ skill: s, scope }) => ({
        name: s.name,
        version: s.version,
        description: s.description,
        domain: s.domain,
        languages: [...s.languages],
        mode: s.mode,
        priority: s.priority,
        tokenBudget: s.tokenBudget,
        dependsOn: [...s.dependsOn],
        conflictsWith: [...s.conflictsWith],
        format: s.format,
        scope,
        origin: s.origin,
      })),
      errors: this.#skillErrors.map(errorDto),
      selected: [...this.#conversations].flatMap(([agentId, c]) => {
        const sel = c.lastSkillSelection();
        return sel ? [{ agentId, names: sel.selected.map((s) => s.name), skipped: sel.skipped.map((k) => ({ ...k })), errors: sel.errors.map(errorDto) }] : [];
      }),
    };
  }
}

function toMessageDto(m: Message): ConversationDto['groups'][number]['messages'][number] {
  switch (m.role) {
    case 'assistant':
      return { id: m.id, role: 'assistant', content: m.content, toolCalls: m.toolCalls.map((c) => ({ ...c })) };
    case 'tool':
      return { id: m.id, role: 'tool', content: m.content, toolCallId: m.toolCallId, isError: m.isError };
    default:
      return { id: m.id, role: 'user', content: m.content };
  }
}
