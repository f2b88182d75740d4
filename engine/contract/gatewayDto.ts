import { z } from 'zod';

/**
 * DTOs of the local gateway (issue 23): its status and the lines that point clients at it, the
 * sessions it saw (session → main thread → subagent threads) with their calls as the provider
 * billed them, and, for managed sessions, each rewrite's generation and the original and rewritten
 * request. Token counts are the provider's own; `savedTokens` / `savedUsd` are estimated.
 */

export const GatewayModeSchema = z.enum(['observe', 'manage']);
const GatewayApiSchema = z.enum(['anthropic-messages', 'anthropic-count-tokens', 'openai-responses', 'openai-chat']);
const Count = z.number().int().nonnegative();

const GatewayUsageDtoSchema = z.object({ input: Count, cacheRead: Count, cacheWrite: Count, cacheWrite1h: Count, output: Count });

const CompressedDtoSchema = z.object({ key: z.string(), tool: z.string().optional(), beforeTokens: Count, afterTokens: Count, why: z.string() });
const DroppedDtoSchema = z.object({ key: z.string(), why: z.string() });

export const GatewayCallDtoSchema = z.object({
  id: z.string(),
  sessionId: z.string(),
  threadId: z.string(),
  api: GatewayApiSchema,
  model: z.string(),
  mode: GatewayModeSchema,
  /** Milliseconds since the epoch when the request arrived. */
  startedAt: z.number(),
  firstByteMs: z.number().nonnegative().optional(),
  durationMs: z.number().nonnegative().optional(),
  status: z.number().int().optional(),
  error: z.string().optional(),
  usage: GatewayUsageDtoSchema.optional(),
  costUsd: z.number().nonnegative().optional(),
  /** Of what went upstream, against the thread's previous request (0..1). */
  prefixReuse: z.number().min(0).max(1),
  cacheBreak: z.object({ at: z.string(), blockIndex: z.number().int(), unchangedBytes: Count, providerReason: z.string().optional() }),
  rewrite: z
    .object({
      generation: Count,
      boundary: z.boolean(),
      reason: z.string().optional(),
      compressed: z.array(CompressedDtoSchema),
      dropped: z.array(DroppedDtoSchema),
      breakpoints: z.array(z.string()),
      originalTokens: Count,
      rewrittenTokens: Count,
    })
    .optional(),
  fallback: z.string().optional(),
  /** `getGatewayRequest` has its original and rewritten request. */
  hasRequest: z.boolean(),
});
export type GatewayCallDto = z.infer<typeof GatewayCallDtoSchema>;

const GatewayTotalsDtoSchema = z.object({
  calls: Count,
  errors: Count,
  managed: Count,
  usage: GatewayUsageDtoSchema,
  costUsd: z.number().nonnegative(),
  prefixReuse: z.number().min(0).max(1),
  /** Estimated (`[gateway-host-savings]`): the prompt tokens manage mode kept from being billed, and the money saved against observe mode's bill of the originals (negative when boundaries cost more). */
  savedTokens: Count,
  savedUsd: z.number(),
});
export type GatewayTotalsDto = z.infer<typeof GatewayTotalsDtoSchema>;

export const GatewaySessionDtoSchema = z.object({
  id: z.string(),
  client: z.string().nullable(),
  clientSessionId: z.string().nullable(),
  model: z.string(),
  mode: GatewayModeSchema,
  threads: Count,
  totals: GatewayTotalsDtoSchema,
  updatedAt: z.number(),
});
export type GatewaySessionDto = z.infer<typeof GatewaySessionDtoSchema>;

const GenerationDtoSchema = z.object({
  generation: z.number().int().positive(),
  reason: z.string(),
  firstCall: z.number().int().positive(),
  calls: z.number().int().positive(),
  included: z.array(z.string()),
  compressed: z.array(CompressedDtoSchema),
  dropped: z.array(DroppedDtoSchema),
});

const GatewayThreadDtoSchema = z.object({
  id: z.string(),
  parentId: z.string().nullable(),
  label: z.string(),
  clientThreadId: z.string().nullable(),
  totals: GatewayTotalsDtoSchema,
  /** The newest calls kept, oldest first. */
  calls: z.array(GatewayCallDtoSchema),
  /** Manage mode's generations of this thread (newest 50, oldest first) and how many there were. */
  generations: z.array(GenerationDtoSchema),
  generationsTotal: Count,
  pins: z.array(z.string()),
  removals: z.array(z.string()),
});
type GatewayThreadDto = z.infer<typeof GatewayThreadDtoSchema>;

export const GatewaySessionDetailDtoSchema = z.object({ session: GatewaySessionDtoSchema, threads: z.array(GatewayThreadDtoSchema) });
export type GatewaySessionDetailDto = z.infer<typeof GatewaySessionDetailDtoSchema>;

export const GatewayStatusDtoSchema = z.object({
  running: z.boolean(),
  /** `http://127.0.0.1:<port>` while running. */
  origin: z.string().nullable(),
  port: z.number().int().nullable(),
  upstreams: z.object({ anthropic: z.string(), openai: z.string() }),
  /** The mode of sessions not seen yet. */
  mode: GatewayModeSchema,
  /** What to paste to point each client at it (while running). */
  clients: z.array(z.object({ client: z.string(), where: z.string(), text: z.string() })),
  /** Why the last start failed, when it did. */
  problem: z.string().nullable(),
});
export type GatewayStatusDto = z.infer<typeof GatewayStatusDtoSchema>;

export const GatewayControlActionSchema = z.enum(['pin', 'unpin', 'remove', 'restore']);
