import { join } from 'node:path';
import type { ConversationDto, SkillsDto } from '../contract';
import type { AgentConversation } from '../conversation/AgentConversation';
import type { Message } from '../conversation/Message';
import { messageTokens } from '../conversation/messageTokens';
import { parseSkillFile } from '../skills/parseSkillFile';
import { isSkillError, type SkillError } from '../skills/SkillError';
import type { Skill } from '../skills/SkillFile';
import { SkillRegistry } from '../skills/SkillRegistry';
import type { Tokenizer } from '../tokens/Tokenizer';
import { loadSkillFiles } from '../node/workspace/loadSkillFiles';

export interface AgentConversationsOptions {
  tokenizer: Tokenizer;
  /** The shipped skills (`resources/skills`); absent: none. */
  shippedSkillsDir?: string;
  /** The workspace folder whose `.strata/skills/**\/SKILL.md` are its own skills; absent: none. */
  workspaceDir?: string;
  /** The conversations of the agents now running (the current run's), by agent id. */
  conversations: () => ReadonlyMap<string, AgentConversation>;
}

type Loaded = { skill: Skill; scope: 'shipped' | 'workspace' };

/**
 * The skills of a workspace (the shipped ones, then the workspace's own as a second set, so a
 * broken workspace skill never hides the shipped ones) and the contract's views of the agents'
 * conversations. The conversations themselves belong to the runtime; this only reads them.
 */
export class AgentConversations {
  readonly #options: AgentConversationsOptions;
  /** The registry runs select from; it fills once the skill files are read (`ready`). */
  readonly registry: SkillRegistry;
  #loaded: Loaded[] = [];
  #skillErrors: SkillError[] = [];
  readonly #ready: Promise<void>;

  constructor(options: AgentConversationsOptions) {
    this.#options = options;
    this.registry = new SkillRegistry((text) => options.tokenizer.count(text));
    this.#ready = this.#loadSkills();
  }

  /** Resolves once the skill files are loaded. */
  ready(): Promise<void> {
    return this.#ready;
  }

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
      const refused = this.registry.add(skills);
      this.#skillErrors.push(...errors, ...parsed.filter(isSkillError), ...refused);
      if (refused.length === 0) this.#loaded.push(...skills.map((skill) => ({ skill, scope })));
    }
  }

  /** The agent's conversation as a DTO; undefined when no agent of the current run has that id. */
  conversation(agentId: string): ConversationDto | undefined {
    const c = this.#options.conversations().get(agentId);
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
      lastRequest: c.lastRequest() ?? null,
    };
  }

  /** Skills loaded, refused, and selected per agent, after pending operations. */
  async skills(): Promise<SkillsDto> {
    await this.#ready;
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
      selected: [...this.#options.conversations()].flatMap(([agentId, c]) => {
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
