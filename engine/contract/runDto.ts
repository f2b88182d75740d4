import { z } from 'zod';
import { MODEL_NAME_MAX, MODEL_RUN_TASK_MAX } from '../shared/limits';
import { UsageTotalsSchema } from './dto';

/**
 * DTOs of agent runs: a run is a set of agents driven by a model through a provider, or by a
 * recording replayed (the demo). Usage per call is what the provider reported, or what the provider
 * cache model computed for a replay (`modeled`).
 */

const RunStatusSchema = z.enum(['idle', 'running', 'paused', 'stopped', 'finished']);
const RunDriverSchema = z.enum(['trace', 'model']);

export const RunDtoSchema = z.object({
  runId: z.string(),
  driver: RunDriverSchema,
  /** What the run is doing, in a few words (the demo's story, or the task given). */
  label: z.string(),
  status: RunStatusSchema,
  /** Milliseconds since the epoch. */
  startedAt: z.number(),
  turns: z.number().int().nonnegative(),
  agents: z.number().int().nonnegative(),
  /** Milliseconds between turns while running (0: as fast as possible). */
  tickMs: z.number().int().nonnegative(),
  /** Why the run stopped, when it did not simply finish. */
  reason: z.string().nullable(),
});
export type RunDto = z.infer<typeof RunDtoSchema>;

export const CallDtoSchema = z.object({
  agentId: z.string(),
  turn: z.number().int().positive(),
  generation: z.number().int().nonnegative(),
  at: z.number(),
  usage: UsageTotalsSchema,
  modeled: z.boolean(),
  /** For a call a provider answered: what the provider cache model estimated, beside the real figures. */
  modeledUsage: UsageTotalsSchema.optional(),
  hitRate: z.number().min(0).max(1),
  /** Share of the prompt's bytes that are the previous prompt's prefix; null when the prompt text is unknown (a recorded call of an attached session). */
  prefixReuse: z.number().min(0).max(1).nullable(),
  /** The bytes behind `prefixReuse` (the prompt's and its shared prefix's), to weight reuse by bytes over calls; null as `prefixReuse`. */
  reuseBytes: z.object({ reused: z.number().int().nonnegative(), prompt: z.number().int().nonnegative() }).nullable(),
  /** Every retry the call needed: the turn repeated after a context-limit refresh, and each HTTP retry (429, 5xx, timeout, connection). */
  retries: z.number().int().nonnegative(),
  /** The HTTP retries among `retries`; absent for a recorded call of an attached session. */
  providerRetries: z.number().int().nonnegative().optional(),
});
export type CallDto = z.infer<typeof CallDtoSchema>;

export const UsageDtoSchema = z.object({
  agentId: z.string(),
  /** The newest calls, oldest first (at most 500 are kept per agent). */
  calls: z.array(CallDtoSchema),
  totals: UsageTotalsSchema.extend({ calls: z.number().int().nonnegative(), hitRate: z.number().min(0).max(1) }),
});
export type UsageDto = z.infer<typeof UsageDtoSchema>;

/** What the host knows about a provider: never the key, only whether one is set. */
export const ProviderSettingsDtoSchema = z.object({
  provider: z.enum(['openai', 'anthropic']),
  baseUrl: z.string().nullable(),
  model: z.string().nullable(),
  keyPresent: z.boolean(),
});
export type ProviderSettingsDto = z.infer<typeof ProviderSettingsDtoSchema>;

export const StartRunArgsSchema = z.discriminatedUnion('driver', [
  /** Replay the bundled demo session through the trace driver and the provider cache model. */
  z
    .object({
      driver: z.literal('trace'),
      tickMs: z.number().int().min(0).max(60_000).optional(),
      /**
       * In a project folder, play the bundled demo's script over the folder's own files anyway (its
       * agents then read those files and recall the folder's memory). Only when asked: Start never
       * does it (`[run-project-folder]`).
       */
      demoInProjectFolder: z.literal(true).optional(),
    })
    .strict(),
  /** Run a primary on `task` through a real provider (its key must be set). */
  z
    .object({
      driver: z.literal('model'),
      provider: z.enum(['openai', 'anthropic']),
      model: z.string().min(1).max(MODEL_NAME_MAX),
      task: z.string().min(1).max(MODEL_RUN_TASK_MAX),
      tickMs: z.number().int().min(0).max(60_000).optional(),
    })
    .strict(),
]);
