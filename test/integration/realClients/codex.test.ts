import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importTraceFile } from '../../../engine/node/traces/importTraceFile';
import { sessionTask } from '../../../engine/node/traces/live/sessionThreads';
import { parseJsonLines } from '../../../engine/traces/jsonText';
import { turnEnded } from '../../../engine/traces/turnEnded';
import { recordedTruth } from '../../../engine/traces/replay/recordedTruth';
import type { TraceImport } from '../../../engine/traces/TraceEvent';
import { expectedUsage, figuresKey, importedCalls, sortedKeys, usageEvents, usageOf } from '../../support/realClients/importExpectations';
import { runRealClient, type HarnessCall, type RealClientRun } from '../../support/realClients/realClientHarness';
import { expectEveryTurnOffline, expectEveryUsageOnce, expectMainThreadSteps, expectReplayWithinTwoPercent, expectScriptedTurns } from '../../support/realClients/scenarioChecks';
import { codexRollouts, type CodexRollout } from '../../support/realClients/sessionFiles';

// The real Codex CLI (test/realClients, 0.171.0), offline against the scripted server: `codex exec`
// with a command and a `spawn_agent` subagent (multi_agent_v2), then two `exec resume` turns, the
// first compacting mid-turn at a low model_auto_compact_token_limit
// (test/support/realClients/codexScenario.ts). Nothing it wrote is kept.

let run: RealClientRun;
let main: CodexRollout;
let child: CodexRollout;
let imported: TraceImport;

const agentCalls = (...agents: string[]): HarnessCall[] => run.modelCalls.filter((c) => agents.includes(c.agent));
const records = (path: string) => readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string; payload: Record<string, unknown> });

describe('[real-client-harness] Codex 0.171.0 through the scripted loopback server', () => {
  beforeAll(async () => {
    run = await runRealClient('codex');
    const rollouts = codexRollouts(run);
    const roots = rollouts.filter((r) => r.parentThreadId === undefined);
    if (roots.length !== 1) throw new Error(`expected one main Codex rollout, found ${roots.length} among ${rollouts.map((r) => r.path).join(', ')}`);
    main = roots[0]!;
    child = rollouts.find((r) => r.parentThreadId === main.threadId)!;
    imported = importTraceFile(main.path);
  }, 20 * 60_000);
  afterAll(() => run?.remove());

  it('[real-client-offline] every address a Codex process tried is on loopback (DNS queries included), and the trace of every turn shows its calls to the server', () => {
    expectEveryTurnOffline(run);
  });

  it('[real-client-harness] every turn exits 0 and the server answered exactly the scripted calls, nothing else', () => {
    expectScriptedTurns(run, ['turn 1: a command and a subagent', 'turn 2: a large output and a compaction', 'turn 3: after the compaction']);
    // The subagent runs beside the main thread's wait_agent call, so only the counts are fixed.
    expect(agentCalls('main')).toHaveLength(8);
    expect(agentCalls('subagent')).toHaveLength(2);
    expect(agentCalls('compaction')).toHaveLength(1);
    expect(run.modelCalls).toHaveLength(11);
  });

  it('[real-client-usage-honest] the server bills each call its own o200k count of the prompt, cached in 128-token steps from 1024, and never hands out the same usage twice', () => {
    for (const c of run.modelCalls) {
      const cached = Number((c.usage['input_tokens_details'] as { cached_tokens: number }).cached_tokens);
      expect(c.usage['input_tokens'], `call ${c.index} (${c.rule})`).toBe(c.promptTokens);
      expect(c.usage['total_tokens']).toBe(c.promptTokens + Number(c.usage['output_tokens']));
      expect(cached === 0 || (cached >= 1024 && cached % 128 === 0 && cached <= c.promptTokens)).toBe(true);
    }
    expect(new Set(run.modelCalls.map((c) => figuresKey(expectedUsage(c)))).size).toBe(run.modelCalls.length);
    expect(run.modelCalls.filter((c) => expectedUsage(c).cacheRead > 0).length).toBeGreaterThanOrEqual(8);
    // The compaction call carries big.log's output: the largest prompt of the run.
    const compaction = agentCalls('compaction')[0]!;
    expect(compaction.promptTokens).toBe(Math.max(...run.modelCalls.map((c) => c.promptTokens)));
  });

  it('[real-client-session-files] Codex wrote one rollout per thread: the subagent\'s names the main thread as its parent, and each records one token_usage_record per call', () => {
    expect(child, 'a rollout whose parent_thread_id is the main thread').toBeDefined();
    expect(codexRollouts(run)).toHaveLength(2);
    expect(child.meta['source']).toMatchObject({ subagent: expect.anything() });
    const ids = (path: string) => records(path).filter((r) => r.type === 'token_usage_record').map((r) => r.payload['response_id']);
    expect(ids(main.path)).toEqual(agentCalls('main', 'compaction').map((c) => `resp_h${c.index}`));
    expect(ids(child.path)).toEqual(agentCalls('subagent').map((c) => `resp_h${c.index}`));
    expect(records(main.path).filter((r) => r.type === 'compacted')).toHaveLength(1);
  });

  it('[real-client-session-files] [live-title] [live-done] the finished rollout is titled by its first request, not its preambles, and its last turn ended', () => {
    expect(sessionTask(imported.events)).toMatch(/^CX-TURN-1: read notes\.txt/);
    const lines = parseJsonLines(readFileSync(main.path, 'utf8'), main.path);
    expect(turnEnded(lines, 'codex-rollout-jsonl')).toBe(true);
    const call = lines.findIndex((r) => JSON.stringify(r.value).includes('"type":"function_call"'));
    expect(turnEnded(lines.slice(0, call + 1), 'codex-rollout-jsonl')).toBe(false);
  });

  it('[real-client-usage-exact] the main rollout\'s usage events are exactly the main-thread calls\' usage, the compaction call\'s included', () => {
    expect(sortedKeys(usageEvents(imported.events).filter((e) => e.agentId === undefined).map(usageOf))).toEqual(sortedKeys(agentCalls('main', 'compaction').map(expectedUsage)));
  });

  it('[real-client-prompt-tokens] Strata\'s recorded prompt tokens of each main-thread call are within 2% of the server\'s count', () => {
    const recorded = recordedTruth(imported.events).perStep.filter((s) => s.agentId === undefined).map((s) => s.prompt);
    const server = agentCalls('main', 'compaction').map((c) => c.promptTokens);
    expect(recorded).toHaveLength(server.length);
    recorded.forEach((p, i) => expect(Math.abs(p - server[i]!) / server[i]!, `call ${i}: Strata ${p}, server ${server[i]}`).toBeLessThanOrEqual(0.02));
  });

  it('[real-client-subagents] the subagent\'s rollout imported on its own holds that subagent\'s usage', () => {
    const sub = importTraceFile(child.path);
    expect(sortedKeys(usageEvents(sub.events).map(usageOf))).toEqual(sortedKeys(agentCalls('subagent').map(expectedUsage)));
  });

  it('[real-client-calls-exact] [trace-codex-usage-record] the main thread has one step per main-thread call the server answered, the compaction call included', () => {
    expectMainThreadSteps(run, imported);
  });

  it('[real-client-calls-exact] [trace-codex-usage-record] the subagent\'s rollout imported on its own has one step per subagent call', () => {
    expect(importedCalls(importTraceFile(child.path).events)).toHaveLength(agentCalls('subagent').length);
  });

  it('[real-client-subagents] [real-client-calls-exact] [trace-codex-subagents] the session\'s import holds the subagent\'s calls and events under an agent id', () => {
    const ofAgents = importedCalls(imported.events).filter((c) => c.agentId !== undefined);
    expect(ofAgents).toHaveLength(agentCalls('subagent').length);
    expect(new Set(ofAgents.map((c) => c.agentId))).toEqual(new Set([child.threadId]));
    expect(imported.events.some((e) => e.type === 'tool_call' && e.agentId !== undefined && e.arguments.includes('settings.ini'))).toBe(true);
    expect(imported.events.find((e) => e.type === 'subagent_spawn')).toMatchObject({ agentId: child.threadId, label: expect.stringContaining('/root/reader') });
    // The subagent's task (the spawn message) is its first input; the main agent hears its answer.
    expect(imported.events.find((e) => e.type === 'user_input' && e.agentId === child.threadId)).toMatchObject({ text: expect.stringContaining('CX-SUBAGENT') });
    expect(importedCalls(imported.events)).toHaveLength(run.modelCalls.length);
  });

  it('[real-client-usage-exact] every call\'s usage as the server returned it is one usage event of the session\'s import, and there is no other', () => {
    expectEveryUsageOnce(run, imported);
  });

  it('[real-client-prompt-tokens] [replay-as-recorded] Strata\'s as-recorded replay of every call is within 2% of the prompt the server counted', () => {
    expectReplayWithinTwoPercent(run, imported, 'openai');
  });
});
