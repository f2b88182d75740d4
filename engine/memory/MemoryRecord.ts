import { z } from 'zod';

/**
 * A project memory entry as stored in the catalog's `memory` table: versioned JSON, schema 2
 * (spec "Project memory storage and erasure"). The table's guard triggers refuse any row whose
 * payload is not schema 2, whose partition is not an opaque `ws_` id or whose state is not one of
 * the five, so a writer that bypasses this module still cannot store anything else.
 */
export const MEMORY_SCHEMA_VERSION = 2;

const MemoryStateSchema = z.enum(['candidate', 'verified', 'stale', 'retired', 'deleted']);
export type MemoryState = z.infer<typeof MemoryStateSchema>;
export const memoryStates = MemoryStateSchema.options;

/** `ws_` and 16 lowercase hex digits: derived from a workspace, never a raw path. */
export const PARTITION_PATTERN = /^ws_[0-9a-f]{16}$/;
/** `mem_` and 8 to 40 lowercase letters or digits. */
export const MEMORY_ID_PATTERN = /^mem_[0-9a-z]{8,40}$/;

/** What kind of durable knowledge an entry holds. */
export const MemoryKindSchema = z.enum(['finding', 'convention', 'build_command', 'decision', 'constraint']);

/** A command that was run as evidence, with when and what it gave. */
const CommandEvidenceSchema = z
  .object({
    command: z.string(),
    /** Milliseconds since the epoch. */
    ranAt: z.number(),
    result: z.string(),
  })
  .strict();

export const MemoryEvidenceSchema = z
  .object({
    /** Workspace-relative paths the observation is about. */
    paths: z.array(z.string()),
    commands: z.array(CommandEvidenceSchema),
    /** Content hash of each path when observed; a view whose file differs drops the entry. */
    hashes: z.record(z.string(), z.string()),
    /** The commit the observation was made on; a view not descending from it drops the entry. */
    commit: z.string().nullable(),
  })
  .strict();
export type MemoryEvidence = z.infer<typeof MemoryEvidenceSchema>;

export const MemoryProvenanceSchema = z
  .object({
    source: z.string(),
    agentId: z.string(),
    taskId: z.string(),
    /** The engine item the entry was promoted from, if any. */
    itemId: z.string().nullable(),
    observedAt: z.number(),
    confidence: z.number().min(0).max(1),
  })
  .strict();

export const MemoryRecordSchema = z
  .object({
    schemaVersion: z.literal(MEMORY_SCHEMA_VERSION),
    id: z.string().regex(MEMORY_ID_PATTERN),
    partition: z.string().regex(PARTITION_PATTERN),
    state: MemoryStateSchema,
    /** Increases by one on every write; every write names the revision it replaces. */
    revision: z.number().int().positive(),
    kind: MemoryKindSchema,
    title: z.string(),
    body: z.string(),
    evidence: MemoryEvidenceSchema,
    provenance: MemoryProvenanceSchema,
    /** True only after an explicit verify (state verified). */
    verified: z.boolean(),
    createdAt: z.number(),
    updatedAt: z.number(),
  })
  .strict();
export type MemoryRecord = z.infer<typeof MemoryRecordSchema>;

/** What a caller proposes; the intake checks it and the store fills in the rest. */
export interface MemoryProposal {
  kind: z.infer<typeof MemoryKindSchema>;
  title: string;
  body: string;
  evidence: MemoryEvidence;
  provenance: z.infer<typeof MemoryProvenanceSchema>;
}
