import { z } from 'zod';
import type { IntakeRow } from '../catalog/legacyImport';
import { intakeRecord } from '../../memory/intake';
import { MEMORY_SCHEMA_VERSION, type MemoryRecord } from '../../memory/MemoryRecord';
import { newMemoryId, partitionId } from '../../memory/partitionId';

/** The version-1 payload: free text keyed by a raw workspace path. */
const LegacyV1Schema = z.object({
  schemaVersion: z.literal(1),
  text: z.string(),
  title: z.string().optional(),
  kind: z.string().optional(),
  paths: z.array(z.string()).optional(),
  createdAt: z.number().optional(),
});

const KINDS = new Set(['finding', 'convention', 'build_command', 'decision', 'constraint']);

/**
 * Turn one legacy row into a schema-2 candidate through the intake (`[legacy-import]`): the raw
 * workspace path becomes an opaque partition, the entry starts unverified whatever it claimed,
 * and anything the intake refuses is refused with its reason.
 */
export function legacyToRow(payload: unknown, legacy: { id: string; workspace: string }, now: number): { ok: true; row: IntakeRow } | { ok: false; reason: string } {
  const parsed = LegacyV1Schema.safeParse(payload);
  if (!parsed.success) return { ok: false, reason: `not a version-1 memory payload (${parsed.error.issues[0]?.path.join('.') || 'payload'})` };
  const v1 = parsed.data;
  const firstLine = (v1.title ?? v1.text.split('\n')[0] ?? '').trim();
  const record: MemoryRecord = {
    schemaVersion: MEMORY_SCHEMA_VERSION,
    id: newMemoryId(`legacy:${legacy.workspace}:${legacy.id}`),
    partition: partitionId(legacy.workspace),
    state: 'candidate',
    revision: 1,
    kind: v1.kind && KINDS.has(v1.kind) ? (v1.kind as MemoryRecord['kind']) : 'finding',
    title: firstLine.length > 200 ? `${cutAt(firstLine, 199)}…` : firstLine || 'Imported observation',
    body: v1.text,
    evidence: { paths: v1.paths ?? [], commands: [], hashes: {}, commit: null },
    provenance: { source: 'legacy_import', agentId: 'legacy', taskId: 'legacy', itemId: null, observedAt: v1.createdAt ?? now, confidence: 0.5 },
    verified: false,
    createdAt: now,
    updatedAt: now,
  };
  const checked = intakeRecord(record);
  if (!checked.ok) return { ok: false, reason: checked.reason };
  const stored = checked.record;
  return { ok: true, row: { id: stored.id, partition: stored.partition, state: stored.state, revision: 1, payload: JSON.stringify(stored), updatedAt: now } };
}

/** The first `n` UTF-16 units, one fewer if that would split a surrogate pair. */
function cutAt(s: string, n: number): string {
  const code = s.charCodeAt(n - 1);
  return s.slice(0, code >= 0xd800 && code <= 0xdbff ? n - 1 : n);
}
