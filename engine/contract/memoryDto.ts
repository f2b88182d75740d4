import { z } from 'zod';

/** A project memory entry as the control room shows it (the stored schema-2 record, minus internals). */
export const MemoryEntryDtoSchema = z.object({
  id: z.string(),
  state: z.enum(['candidate', 'verified', 'stale', 'retired', 'deleted']),
  /** Name this revision when changing the entry; a stale revision is refused with `conflict`. */
  revision: z.number().int().positive(),
  kind: z.string(),
  title: z.string(),
  body: z.string(),
  verified: z.boolean(),
  evidence: z.object({
    paths: z.array(z.string()),
    commands: z.array(z.object({ command: z.string(), ranAt: z.number(), result: z.string() })),
    commit: z.string().nullable(),
  }),
  provenance: z.object({
    source: z.string(),
    agentId: z.string(),
    taskId: z.string(),
    itemId: z.string().nullable(),
    observedAt: z.number(),
    confidence: z.number(),
  }),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type MemoryEntryDto = z.infer<typeof MemoryEntryDtoSchema>;

export const PurgeReportDtoSchema = z.object({
  deleted: z.number().int().nonnegative(),
  recalledCopiesDeleted: z.number().int().nonnegative(),
  vacuumed: z.boolean(),
  walTruncated: z.boolean(),
  /** What a purge cannot promise (old backups, pages written before secure_delete). */
  residual: z.string(),
});
