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

/**
 * What a purge did, where, and what it cannot promise. `residual` is the statement to show: it
 * names the tables it changed and everything that may still hold the text, never claiming more
 * than happened. The fields after `recalledCopiesDeleted` are optional only so that older views
 * still read the report; the host always sends them.
 */
export const PurgeReportDtoSchema = z.object({
  deleted: z.number().int().nonnegative(),
  recalledCopiesDeleted: z.number().int().nonnegative(),
  /** The memory partitions the purge covered (the workspace's own). */
  partitions: z.array(z.string()).optional(),
  /** Other partitions of the same catalog holding entries of the purged states, left alone and named in `residual`. */
  otherPartitions: z.array(z.object({ partition: z.string(), entries: z.number().int().nonnegative() })).optional(),
  /** Rows outside the memory table whose copy of a purged entry's text was replaced, per table (every table named). */
  scrubbed: z.array(z.object({ table: z.string(), rows: z.number().int().nonnegative() })).optional(),
  /** Imported traces that still hold a purged entry's text (recordings are not rewritten). */
  tracesHolding: z.number().int().nonnegative().optional(),
  vacuumed: z.boolean(),
  walTruncated: z.boolean(),
  /** What a purge cannot promise (old backups, pages written before secure_delete). */
  residual: z.string(),
});
