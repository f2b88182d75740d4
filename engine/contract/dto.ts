import { z } from 'zod';
import { BoundaryDtoSchema } from './engineDto';

/**
 * Plain, structured-cloneable DTOs that cross the contract. Every value here must survive
 * `structuredClone` and `JSON.stringify` unchanged: no classes, Dates, Maps or functions, because
 * the same objects travel over Electron IPC and over the WebSocket of the headless host.
 */

/** Agent roles from the spec. A role decides the L0 instructions an agent receives. */
export const AgentRoleSchema = z.enum([
  'primary',
  'worker',
  'debug',
  'integration',
  'probe',
  'reviewer',
  'architect',
  'test',
]);
export type AgentRole = z.infer<typeof AgentRoleSchema>;

/** Lifecycle status an operator sees in the agent tree. */
/** `paused`: an operator paused the agent (`controlAgent`); the scheduler skips it until resumed. */
const AgentStatusSchema = z.enum(['waiting', 'running', 'refreshing', 'done', 'failed', 'paused']);
export type AgentStatus = z.infer<typeof AgentStatusSchema>;

/** Token accounting summed over an agent's provider calls (provider figures are authoritative). */
export const UsageTotalsSchema = z.object({
  input: z.number().int().nonnegative(),
  cacheRead: z.number().int().nonnegative(),
  cacheWrite: z.number().int().nonnegative(),
  output: z.number().int().nonnegative(),
});
export type UsageTotals = z.infer<typeof UsageTotalsSchema>;

/**
 * One agent as the control room shows it. `revision` increases on every change so a view can drop
 * a snapshot that is older than an event it already applied.
 */
export const AgentDtoSchema = z.object({
  agentId: z.string().min(1),
  parent: z.string().min(1).nullable(),
  role: AgentRoleSchema,
  task: z.string(),
  model: z.string(),
  status: AgentStatusSchema,
  generation: z.number().int().positive(),
  tokens: z.number().int().nonnegative(),
  budget: z.number().int().positive(),
  usage: UsageTotalsSchema,
  /** CacheRead / (Input + CacheRead + CacheWrite), 0 when the denominator is 0 (DESIGN.md Metrics). */
  cacheHitRate: z.number().min(0).max(1),
  revision: z.number().int().nonnegative(),
  /** ISO-8601 time of the last change. */
  updatedAt: z.string(),
  /**
   * How the agent's current generation (`generation`) began, as its engine recorded it
   * (`[agent-boundary]`): a page that loads the agents knows why each is in its generation (a
   * context-limit refresh among them) without the events it did not see. Null while the engine
   * holds no such generation (an agent not built yet).
   */
  boundary: BoundaryDtoSchema.nullable(),
  /**
   * The agent's newest error-level log line since its run began (`[agent-last-error]`): its text,
   * time and log `seq`. A page that loads the agents flags the error and says what it was without
   * the log lines it did not see; a run that starts over (the same ids again) starts with none.
   * Null when there is none (and on an attached session's agents, which the host never logs errors for).
   */
  lastError: z.object({ message: z.string(), at: z.string(), seq: z.number().int().nonnegative() }).nullable(),
  /**
   * Set on the agents of an attached Claude Code or Codex session (`attachSession`): the session's
   * id. They are watched, never driven: commands that change an agent or its items refuse them (`conflict`).
   */
  sessionId: z.string().optional(),
  /**
   * Only on an attached session's agents, whose `tokens` / `budget` are Strata's replay of it (its
   * current generation against the replay budget): the real client's own context, never measured
   * against Strata's budget (`[live-windows]`). `tokens` is its prompt at its latest recorded call;
   * `window` the context window it ran with, from the file (`recorded`), the model's standard one
   * (`model`) or the only one that takes a prompt that large (`inferred`); null when unknown.
   */
  recorded: z
    .object({
      client: z.enum(['Claude Code', 'Codex']).nullable(),
      tokens: z.number().int().nonnegative(),
      window: z.number().int().positive().nullable(),
      windowSource: z.enum(['recorded', 'model', 'inferred']).nullable(),
    })
    .optional(),
});
export type AgentDto = z.infer<typeof AgentDtoSchema>;

const LogLevelSchema = z.enum(['debug', 'info', 'warn', 'error']);
export type LogLevel = z.infer<typeof LogLevelSchema>;

/** A line of the workspace event log. `seq` is strictly increasing within a catalog. */
export const LogEntrySchema = z.object({
  seq: z.number().int().positive(),
  at: z.string(),
  level: LogLevelSchema,
  agentId: z.string().nullable(),
  message: z.string(),
});
export type LogEntry = z.infer<typeof LogEntrySchema>;

/** What `health` reports: enough for an operator to see which catalog the host serves. */
export const HealthDtoSchema = z.object({
  ok: z.literal(true),
  version: z.string(),
  /** `projectFolder`: a workspace of the user's own folder (not the bundled demo), whose runs are model runs (`[run-project-folder]`). */
  workspace: z.object({ name: z.string(), catalogPath: z.string(), projectFolder: z.boolean().optional() }),
  catalog: z.object({ schemaVersion: z.number().int().nonnegative(), journalMode: z.string() }),
  agents: z.number().int().nonnegative(),
  uptimeMs: z.number().nonnegative(),
});
export type HealthDto = z.infer<typeof HealthDtoSchema>;

/** The selected agent with its direct children and its latest log lines. */
export const AgentDetailDtoSchema = z.object({
  agent: AgentDtoSchema,
  children: z.array(z.string()),
  recentLog: z.array(LogEntrySchema),
});
export type AgentDetailDto = z.infer<typeof AgentDetailDtoSchema>;
