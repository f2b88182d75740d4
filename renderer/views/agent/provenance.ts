import type { ItemDto } from '../../../engine/contract';

/** UTC minute of a provenance time, e.g. "2026-01-05 09:20Z" (the same in every locale). */
export const utcMinute = (ms: number): string => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')}Z`;

/** The provenance of an item on one line: agent, task, time, confidence, verified, files, symbols. */
export function provenanceLine(item: ItemDto): string {
  const p = item.provenance;
  const parts = [`by ${p.agentId}`, p.taskId, utcMinute(p.at), `confidence ${p.confidence.toFixed(2)}`, p.verified ? 'verified' : 'unverified'];
  if (p.files.length > 0) parts.push(`files ${p.files.join(', ')}`);
  if (p.symbols.length > 0) parts.push(`symbols ${p.symbols.join(', ')}`);
  return parts.join(' · ');
}
