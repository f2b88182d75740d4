import { expect } from 'vitest';
import { memoTokenizer } from '../../../engine/tokens/memoTokenizer';
import type { BaselineOptions } from '../../../engine/traces/replay/ReplayTypes';
import { replayAsRecorded } from '../../../engine/traces/replay/replayTranscript';
import type { TraceImport } from '../../../engine/traces/TraceEvent';
import { mainThread, traceSteps } from '../../../engine/traces/traceSteps';
import { asRecordedAgainstServer, expectedUsage, sortedKeys, usageEvents, usageOf } from './importExpectations';
import { describeAttempts, type HarnessCall, type RealClientRun } from './realClientHarness';
import { isLoopback } from './straceNetwork';

/**
 * The assertions both clients' three-turn scenario tests share (`claudeCode.test.ts`,
 * `codex.test.ts`): the run's own checks, and the import of its main session against the server's log.
 */

const agentCalls = (run: RealClientRun, ...agents: string[]): HarnessCall[] => run.modelCalls.filter((c) => agents.includes(c.agent));

/** No process of the client tried an address off loopback (DNS queries included), and each turn was traced. */
export function expectEveryTurnOffline(run: RealClientRun): void {
  expect(describeAttempts(run.offLoopback), 'addresses off loopback').toBe('');
  // Every turn's trace shows the client reaching the server, so the trace watched each turn.
  const port = Number(new URL(run.origin).port);
  const turnsSeen = new Set(run.network.filter((a) => a.syscall === 'connect' && a.port === port && isLoopback(a.address)).map((a) => a.turn));
  expect([...turnsSeen].sort()).toEqual(run.steps.map((_, i) => i));
}

/** The turns, `labels` in order, each exited 0 in time; every rule answered, and the server answered nothing else. */
export function expectScriptedTurns(run: RealClientRun, labels: readonly string[]): void {
  expect(run.steps.map((s) => [s.label, s.exitCode, s.timedOut])).toEqual(labels.map((label) => [label, 0, false]));
  expect(run.unusedRules).toEqual([]);
  expect(run.calls.filter((c) => c.status !== 200 || c.agent === 'unscripted').map((c) => `${c.method} ${c.path} ${c.status} ${c.rule ?? ''}`)).toEqual([]);
}

/** The import's main thread has one step per main-thread call the server answered, the compaction call's (with its usage) included. */
export function expectMainThreadSteps(run: RealClientRun, imported: TraceImport): void {
  expect(traceSteps(mainThread(imported.events).events)).toHaveLength(agentCalls(run, 'main', 'compaction').length);
  expect(usageEvents(imported.events).filter((e) => e.call === 'compaction').map(usageOf)).toEqual(agentCalls(run, 'compaction').map(expectedUsage));
}

/** Every call's usage as the server returned it is one usage event of the import, and there is no other. */
export function expectEveryUsageOnce(run: RealClientRun, imported: TraceImport): void {
  expect(sortedKeys(usageEvents(imported.events).map(usageOf))).toEqual(sortedKeys(run.modelCalls.map(expectedUsage)));
}

/** Strata's as-recorded replay of the import (o200k, priced as `provider`) has a step per call, each within 2% of the prompt the server counted. */
export function expectReplayWithinTwoPercent(run: RealClientRun, imported: TraceImport, provider: BaselineOptions['provider']): void {
  const replay = replayAsRecorded(imported.events, { provider, tokenizer: memoTokenizer('o200k_base') });
  expect(replay.steps).toHaveLength(run.modelCalls.length);
  for (const { label, strata, server } of asRecordedAgainstServer(imported.events, replay.steps, run.modelCalls)) {
    expect(server, label).toBeDefined();
    expect(Math.abs(strata - server!) / server!, `${label}: Strata ${strata}, server ${server}`).toBeLessThanOrEqual(0.02);
  }
}
