import type { MemoryEntryDto } from '../contract';
import type { ContextItem } from '../items/ContextItem';
import type { MemoryProposal, MemoryRecord } from '../memory/MemoryRecord';
import type { WorktreeView } from '../memory/recall/WorktreeView';

/** The contract form of a memory record (its partition and file hashes stay inside). */
export function toMemoryDto(r: MemoryRecord): MemoryEntryDto {
  return {
    id: r.id,
    state: r.state,
    revision: r.revision,
    kind: r.kind,
    title: r.title,
    body: r.body,
    verified: r.verified,
    evidence: { paths: [...r.evidence.paths], commands: r.evidence.commands.map((c) => ({ ...c })), commit: r.evidence.commit },
    provenance: { ...r.provenance },
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

const KIND: Partial<Record<ContextItem['kind'], MemoryProposal['kind']>> = { decision: 'decision', constraint: 'constraint' };

/**
 * A memory proposal from an engine item: its text, files (with their hashes in the workspace
 * view, so recall can later tell whether they changed) and provenance. The intake still decides.
 */
export function proposalFromItem(item: ContextItem, view: WorktreeView): MemoryProposal {
  const hashes: Record<string, string> = {};
  for (const f of item.provenance.files) {
    const h = view.hashOf(f);
    if (h !== undefined) hashes[f] = h;
  }
  return {
    kind: KIND[item.kind] ?? 'finding',
    title: item.title,
    body: item.content,
    evidence: { paths: [...item.provenance.files], commands: [], hashes, commit: null },
    provenance: {
      source: item.provenance.source,
      agentId: item.provenance.agentId,
      taskId: item.provenance.taskId,
      itemId: item.id,
      observedAt: item.provenance.at,
      confidence: item.provenance.confidence,
    },
  };
}
