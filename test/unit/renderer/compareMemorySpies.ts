import { vi, type Mock } from 'vitest';
import type { CompareMemoryController } from '../../../renderer/controller/compareMemoryController';

/** The Compare, Memory and Skills views' controller methods as spies resolving to nothing. */
export type CompareMemorySpies = { [K in keyof CompareMemoryController]: Mock<CompareMemoryController[K]> };

export function compareMemorySpies(): CompareMemorySpies {
  return {
    loadTraces: vi.fn<CompareMemoryController['loadTraces']>(async () => undefined),
    importTraceFile: vi.fn<CompareMemoryController['importTraceFile']>(async () => undefined),
    startComparison: vi.fn<CompareMemoryController['startComparison']>(async () => undefined),
    loadComparisons: vi.fn<CompareMemoryController['loadComparisons']>(async () => undefined),
    openComparison: vi.fn<CompareMemoryController['openComparison']>(async () => undefined),
    cancelComparison: vi.fn<CompareMemoryController['cancelComparison']>(async () => undefined),
    removeTrace: vi.fn<CompareMemoryController['removeTrace']>(async () => undefined),
    loadMemory: vi.fn<CompareMemoryController['loadMemory']>(async () => undefined),
    verifyMemory: vi.fn<CompareMemoryController['verifyMemory']>(async () => undefined),
    retireMemory: vi.fn<CompareMemoryController['retireMemory']>(async () => undefined),
    unverifyMemory: vi.fn<CompareMemoryController['unverifyMemory']>(async () => undefined),
    editMemory: vi.fn<CompareMemoryController['editMemory']>(async () => true),
    promoteCandidate: vi.fn<CompareMemoryController['promoteCandidate']>(async () => undefined),
    purgeMemory: vi.fn<CompareMemoryController['purgeMemory']>(async () => undefined),
    loadSkills: vi.fn<CompareMemoryController['loadSkills']>(async () => undefined),
    loadCandidates: vi.fn<CompareMemoryController['loadCandidates']>(async () => undefined),
  };
}
