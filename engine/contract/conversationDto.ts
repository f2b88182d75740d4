import { z } from 'zod';

/**
 * DTOs of agent conversations and skills as the control room sees them: the persisted messages
 * with their group ids, the one summary, the audit trail of every destructive change, the
 * compaction events and checkpoints, and the skills loaded and selected per agent.
 */

const ToolCallDtoSchema = z.object({ id: z.string(), name: z.string(), arguments: z.string() });

/** A persisted history message; `toolCalls` on assistant messages, `toolCallId`/`isError` on tool results. */
const ConversationMessageDtoSchema = z.object({
  id: z.string(),
  role: z.enum(['user', 'assistant', 'tool']),
  content: z.string(),
  toolCalls: z.array(ToolCallDtoSchema).optional(),
  toolCallId: z.string().optional(),
  isError: z.boolean().optional(),
});

const TurnGroupDtoSchema = z.object({
  id: z.string(),
  turnId: z.string(),
  /** Tokens of the group's messages with the conversation's tokenizer. */
  tokens: z.number().int().nonnegative(),
  messages: z.array(ConversationMessageDtoSchema),
});

const AuditDtoSchema = z.object({
  operation: z.enum(['truncate', 'compress']),
  outcome: z.enum(['applied', 'unchanged', 'failed']),
  removedMessageIds: z.array(z.string()),
  removedGroupIds: z.array(z.string()),
  removedTurnIds: z.array(z.string()),
  addedMessageIds: z.array(z.string()),
  reason: z.string(),
  tokensBefore: z.number(),
  tokensAfter: z.number(),
  overBudget: z.boolean().optional(),
  at: z.number(),
});

const CheckpointDtoSchema = z.object({
  sourceTurnIds: z.array(z.string()),
  retainedTurnIds: z.array(z.string()),
  telemetryBefore: z.object({ tokens: z.number(), contextWindow: z.number().optional() }),
  telemetryAfter: z.object({ tokens: z.number(), contextWindow: z.number().optional() }),
  summary: z.string(),
});

/** One policy decision of the conversation: a compaction (done, denied, failed) or a reminder sent. */
const ConversationEventDtoSchema = z.object({
  kind: z.enum(['compaction', 'pressure_reminder', 'workspace_reminder']),
  at: z.number(),
  /** For compactions: what triggered it, how it ran and how it ended. */
  trigger: z.enum(['budget', 'task_pressure', 'context_window']).optional(),
  method: z.enum(['truncate', 'compress', 'fallback', 'native']).optional(),
  outcome: z.enum(['compacted', 'denied', 'failed', 'unchanged']).optional(),
  reason: z.string().optional(),
  tokensBefore: z.number().optional(),
  tokensAfter: z.number().optional(),
  deniedBy: z.string().optional(),
});

export const ConversationDtoSchema = z.object({
  agentId: z.string(),
  config: z.object({
    strategy: z.enum(['truncate', 'compress']),
    maxTokens: z.number().int().positive(),
    preserveRecentTurns: z.number().int().nonnegative(),
    summaryMaxTokens: z.number().int().positive(),
  }),
  /** Tokens of the persisted parts (transients are per request and not kept). */
  tokens: z.object({ system: z.number(), summary: z.number(), history: z.number(), total: z.number() }),
  system: z.object({ id: z.string(), content: z.string() }),
  summary: z.object({ id: z.string(), content: z.string(), sourceTurnIds: z.array(z.string()) }).nullable(),
  /** The fixed user message that opens a history whose oldest kept group is an assistant message (`[resume-bridge]`). */
  resumeBridge: z.object({ id: z.string(), content: z.string() }).nullable(),
  groups: z.array(TurnGroupDtoSchema),
  /** The audit trail, oldest first (the last 200 kept). */
  audits: z.array(AuditDtoSchema),
  events: z.array(ConversationEventDtoSchema),
  checkpoints: z.array(CheckpointDtoSchema),
  /** The transients the last request carried (source and tokens), none before the first request. */
  lastRequest: z.object({ tokens: z.number(), transients: z.array(z.object({ source: z.string(), tokens: z.number() })) }).nullable(),
});

const SkillDtoSchema = z.object({
  name: z.string(),
  version: z.string(),
  description: z.string(),
  domain: z.string(),
  languages: z.array(z.string()),
  mode: z.enum(['always', 'selected']),
  priority: z.number(),
  tokenBudget: z.number(),
  dependsOn: z.array(z.string()),
  conflictsWith: z.array(z.string()),
  format: z.enum(['strata', 'minimal']),
  /** Where it was loaded from: `shipped` (resources/skills) or `workspace` (.strata/skills). */
  scope: z.enum(['shipped', 'workspace']),
  origin: z.string(),
});

const SkillErrorDtoSchema = z.object({
  kind: z.string(),
  message: z.string(),
  origin: z.string().optional(),
  skill: z.string().optional(),
  key: z.string().optional(),
});

export const SkillsDtoSchema = z.object({
  loaded: z.array(SkillDtoSchema),
  /** Files or sets that were refused; a refused workspace set adds none of its skills. */
  errors: z.array(SkillErrorDtoSchema),
  /** Per agent, the skills its last request carried and why the others were left out. */
  selected: z.array(
    z.object({
      agentId: z.string(),
      names: z.array(z.string()),
      skipped: z.array(z.object({ name: z.string(), reason: z.enum(['not-matched', 'conflict', 'over-budget']), message: z.string() })),
      errors: z.array(SkillErrorDtoSchema),
    }),
  ),
});

export type ConversationDto = z.infer<typeof ConversationDtoSchema>;
export type SkillsDto = z.infer<typeof SkillsDtoSchema>;
