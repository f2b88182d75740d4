import type { LogEntry } from '../../../engine/contract';
import type { RootState } from '../reduce';

/** The newest `limit` log lines, of one agent when `agentId` is given. */
export function selectLog(s: RootState, limit: number, agentId?: string): LogEntry[] {
  const all = agentId ? s.log.entries.filter((e) => e.agentId === agentId) : s.log.entries;
  return all.slice(Math.max(0, all.length - limit));
}
