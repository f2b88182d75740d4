import { vi, type Mock } from 'vitest';
import type { AgentViewController } from '../../../renderer/controller/agentViewController';

/** The agent view's controller methods as spies resolving to nothing. */
export type AgentViewSpies = { [K in keyof AgentViewController]: Mock<AgentViewController[K]> };

export function agentViewSpies(): AgentViewSpies {
  return {
    loadGenerations: vi.fn<AgentViewController['loadGenerations']>(async () => undefined),
    viewGeneration: vi.fn<AgentViewController['viewGeneration']>(async () => undefined),
    diffGenerations: vi.fn<AgentViewController['diffGenerations']>(async () => undefined),
    pin: vi.fn<AgentViewController['pin']>(async () => undefined),
    unpin: vi.fn<AgentViewController['unpin']>(async () => undefined),
    remove: vi.fn<AgentViewController['remove']>(async () => undefined),
    verify: vi.fn<AgentViewController['verify']>(async () => undefined),
    promote: vi.fn<AgentViewController['promote']>(async () => undefined),
    promoteToMemory: vi.fn<AgentViewController['promoteToMemory']>(async () => undefined),
    addConstraint: vi.fn<AgentViewController['addConstraint']>(async () => ({ error: 'not wired in this test' })),
    askChange: vi.fn<AgentViewController['askChange']>(async () => undefined),
    confirmChange: vi.fn<AgentViewController['confirmChange']>(async () => undefined),
    cancelChange: vi.fn<AgentViewController['cancelChange']>(() => undefined),
    rebuild: vi.fn<AgentViewController['rebuild']>(async () => undefined),
    refresh: vi.fn<AgentViewController['refresh']>(async () => undefined),
    restoreGeneration: vi.fn<AgentViewController['restoreGeneration']>(async () => undefined),
    loadRuns: vi.fn<AgentViewController['loadRuns']>(async () => undefined),
    startRun: vi.fn<AgentViewController['startRun']>(async () => undefined),
    pauseRun: vi.fn<AgentViewController['pauseRun']>(async () => undefined),
    resumeRun: vi.fn<AgentViewController['resumeRun']>(async () => undefined),
    controlAgent: vi.fn<AgentViewController['controlAgent']>(async () => undefined),
    stepRun: vi.fn<AgentViewController['stepRun']>(async () => undefined),
    stopRun: vi.fn<AgentViewController['stopRun']>(async () => undefined),
    onEvent: vi.fn<AgentViewController['onEvent']>(() => undefined),
  };
}
