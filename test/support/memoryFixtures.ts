import type { MemoryEvidence, MemoryProposal, MemoryRecord } from '../../engine/memory/MemoryRecord';
import type { WorktreeView } from '../../engine/memory/recall/WorktreeView';

/** Scenario time of the recall tests: observations are a few days older. */
export const NOW = Date.parse('2026-11-29T12:00:00Z');
export const DAY = 24 * 60 * 60 * 1000;

/** What a record builder may change; evidence and provenance merge field by field. */
export type RecordOver = Partial<Omit<MemoryRecord, 'evidence' | 'provenance'>> & {
  evidence?: Partial<MemoryEvidence>;
  provenance?: Partial<MemoryRecord['provenance']>;
};

let n = 0;

/**
 * A verified schema-2 record about `src/auth/refresh.ts`, observed two days before `NOW`, with
 * a recent command and the file's hash in `viewOf()`: current in that view unless changed.
 */
export function memoryRecord(over: RecordOver = {}): MemoryRecord {
  n++;
  const { evidence, provenance, ...rest } = over;
  return {
    schemaVersion: 2,
    id: `mem_${String(n).padStart(8, '0')}`,
    partition: 'ws_0123456789abcdef',
    state: 'verified',
    revision: 2,
    kind: 'finding',
    title: `Refresh tokens rotate on every use (${n})`,
    body: 'rotateRefreshToken() revokes the whole family when a rotated token is reused.',
    evidence: {
      paths: ['src/auth/refresh.ts'],
      commands: [{ command: 'npm test -- refresh', ranAt: NOW - 2 * DAY, result: 'exit 0' }],
      hashes: { 'src/auth/refresh.ts': hashIn('src/auth/refresh.ts') },
      commit: 'c0ffee',
      ...evidence,
    },
    provenance: { source: 'worker_finding', agentId: 'worker-1', taskId: 'task-auth', itemId: null, observedAt: NOW - 2 * DAY, confidence: 0.8, ...provenance },
    verified: true,
    createdAt: NOW - 2 * DAY,
    updatedAt: NOW - 2 * DAY,
    ...rest,
  };
}

/** The hash a `viewOf()` view reports for `path`. */
export const hashIn = (path: string): string => `h:${path}`;

/**
 * A worktree view for tests: the paths it has (each hashed by `hashIn` unless `hashes` says
 * otherwise) and the answer it gives on ancestry (default: every commit is an ancestor).
 */
export function viewOf(o: { paths?: readonly string[]; hashes?: Record<string, string>; descends?: boolean | undefined | ((commit: string) => boolean | undefined) } = {}): WorktreeView {
  const paths = new Set(o.paths ?? ['src/auth/refresh.ts', 'src/auth/store.ts', 'src/session/verify.ts', 'package.json']);
  const descends = 'descends' in o ? o.descends : true;
  return {
    hashOf: (path) => (paths.has(path) ? (o.hashes?.[path] ?? hashIn(path)) : undefined),
    descendsFrom: (commit) => (typeof descends === 'function' ? descends(commit) : descends),
  };
}

/** A proposal the memory intake accepts, varied by `k` (crash child, bench). */
export function proposalNo(k: number, at: number): MemoryProposal {
  return {
    kind: 'build_command',
    title: `Build step ${k} uses npm run build`,
    body: `Observation ${k}: electron-vite writes out/main/index.js; run it before the e2e suite.`,
    evidence: { paths: ['package.json', `src/module${k % 50}/index.ts`], commands: [], hashes: {}, commit: null },
    provenance: { source: 'worker_finding', agentId: 'worker-1', taskId: 'task-build', itemId: null, observedAt: at, confidence: 0.7 },
  };
}
