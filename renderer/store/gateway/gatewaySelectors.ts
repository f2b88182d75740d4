import type { GatewayCallDto, GatewaySessionDetailDto, GatewayStatusDto } from '../../../engine/contract';
import { cacheHitRate } from '../../../engine/metrics/cacheHitRate';
import type { RootState } from '../reduce';
import type { GatewayState } from './gatewaySlice';

/** Named selectors of the Gateway view. */

type GatewayThread = GatewaySessionDetailDto['threads'][number];
type Usage = NonNullable<GatewayCallDto['usage']>;

export const selectGatewayStatus = (s: RootState): GatewayStatusDto | null => s.gateway.status;
export const selectGatewayLoad = (s: RootState): Pick<GatewayState, 'load' | 'loadError'> => s.gateway;
export const selectGatewaySessions = (s: RootState): GatewayState['sessions'] => s.gateway.sessions;
export const selectGatewayNotice = (s: RootState): GatewayState['notice'] => s.gateway.notice;
export const selectGatewayDetail = (s: RootState): GatewaySessionDetailDto | null => s.gateway.detail;
export const selectGatewayRequest = (s: RootState): GatewayState['request'] => s.gateway.request;

/** The shown thread of the selected session, or undefined before its detail arrives. */
export const selectGatewayThread = (s: RootState): GatewayThread | undefined => s.gateway.detail?.threads.find((t) => t.id === s.gateway.threadId);

/**
 * Prompt tokens the provider billed: uncached input, cache reads and cache writes (the parts are
 * disjoint; `cacheWrite1h` is the part of `cacheWrite` written for an hour, not added again).
 */
export const billedPromptTokens = (u: Usage): number => u.input + u.cacheRead + u.cacheWrite;

/** The share of the prompt read from cache: the one hit-rate definition (engine/metrics). */
export const cacheReadShare = (u: Usage): number => cacheHitRate(u);

/** Cache writes by lifetime: the 5-minute ones are those not written for an hour. */
export const cacheWrites = (u: Usage): { m5: number; h1: number } => ({ m5: u.cacheWrite - u.cacheWrite1h, h1: u.cacheWrite1h });

/** One row of the thread tree: the thread and how deep it sits under the main thread. */
export interface ThreadRow {
  thread: GatewayThread;
  depth: number;
}

let treeMemo: { threads: GatewayThread[]; rows: ThreadRow[] } | undefined;

/**
 * The selected session's threads as a tree in display order: each root (the main thread, or a
 * thread whose parent is not kept) followed by its children by `parentId`, depth first, in the
 * host's order. The same array until the threads change.
 */
export function selectThreadRows(s: RootState): ThreadRow[] {
  const threads = s.gateway.detail?.threads ?? [];
  if (treeMemo?.threads === threads) return treeMemo.rows;
  const rows = threadRows(threads);
  treeMemo = { threads, rows };
  return rows;
}

function threadRows(threads: readonly GatewayThread[]): ThreadRow[] {
  const ids = new Set(threads.map((t) => t.id));
  const children = new Map<string, GatewayThread[]>();
  for (const t of threads) {
    if (t.parentId === null || !ids.has(t.parentId)) continue;
    children.set(t.parentId, [...(children.get(t.parentId) ?? []), t]);
  }
  const rows: ThreadRow[] = [];
  const seen = new Set<string>();
  const visit = (t: GatewayThread, depth: number) => {
    if (seen.has(t.id)) return;
    seen.add(t.id);
    rows.push({ thread: t, depth });
    for (const c of children.get(t.id) ?? []) visit(c, depth + 1);
  };
  const roots = threads.filter((t) => t.parentId === null || !ids.has(t.parentId));
  // Main threads first, then orphans whose parent was let go.
  for (const t of [...roots.filter((r) => r.parentId === null), ...roots.filter((r) => r.parentId !== null)]) visit(t, 0);
  // A parent cycle has no root: list what is left flat rather than lose it.
  for (const t of threads) visit(t, 0);
  return rows;
}

/** The thread's calls newest first (the host keeps them oldest first). */
export const newestCallsFirst = (calls: readonly GatewayCallDto[]): GatewayCallDto[] => [...calls].reverse();
