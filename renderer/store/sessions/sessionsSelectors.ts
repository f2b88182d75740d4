import type { LiveSessionDetailDto, LiveSessionDto, SessionDto } from '../../../engine/contract';
import { selectSelectedAgent } from '../agents/agentsSelectors';
import type { RootState } from '../reduce';
import type { SessionsState } from './sessionsSlice';

/** Named selectors of the attach rail and the "Real vs Strata" panel. */

export const selectDiscovered = (s: RootState): SessionsState['discovered'] => s.sessions.discovered;
export const selectAttaching = (s: RootState): string | null => s.sessions.attaching;
export const selectDetaching = (s: RootState): Record<string, true> => s.sessions.detaching;
export const selectSessionsNotice = (s: RootState): SessionsState['notice'] => s.sessions.notice;
export const selectAttachedError = (s: RootState): string | null => s.sessions.attachedError;
export const selectAttachedSession = (s: RootState, sessionId: string): LiveSessionDto | undefined => s.sessions.attached[sessionId];
export const selectSessionDetail = (s: RootState, sessionId: string): LiveSessionDetailDto | undefined => s.sessions.details[sessionId];
export const selectSessionDetailError = (s: RootState, sessionId: string): string | undefined => s.sessions.detailErrors[sessionId];

/** The session the selected agent belongs to (its main thread or a subagent); null for Strata's own agents. */
export const selectSelectedSessionId = (s: RootState): string | null => selectSelectedAgent(s)?.sessionId ?? null;

/** The session's main agent (whose id is the session id) has arrived in the tree. */
export const selectMainAgentKnown = (s: RootState, sessionId: string): boolean => sessionId in s.agents.byId;

/** Whether the session's main agent is done (`[live-done]`: its last turn ended and its file went quiet). */
export const selectSessionDone = (s: RootState, sessionId: string): boolean => s.agents.byId[sessionId]?.status === 'done';

let attachedMemo: { attached: SessionsState['attached']; order: string[]; list: LiveSessionDto[] } | undefined;

/** Attached sessions in the order they became known; the same array until they change. */
export function selectAttachedList(s: RootState): LiveSessionDto[] {
  const { attached, order } = s.sessions;
  if (attachedMemo && attachedMemo.attached === attached && attachedMemo.order === order) return attachedMemo.list;
  const list = order.flatMap((id) => (attached[id] ? [attached[id]] : []));
  attachedMemo = { attached, order, list };
  return list;
}

let discoveredMemo: { from: SessionDto[]; sorted: SessionDto[] } | undefined;

/** Discovered session files, most recently written first (the host's order, kept even if it changes). */
export function selectDiscoveredNewestFirst(s: RootState): SessionDto[] {
  const from = s.sessions.discovered.sessions;
  if (discoveredMemo?.from === from) return discoveredMemo.sorted;
  const time = (x: SessionDto) => Date.parse(x.modifiedAt) || 0;
  const sorted = [...from].sort((a, b) => time(b) - time(a) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  discoveredMemo = { from, sorted };
  return sorted;
}
