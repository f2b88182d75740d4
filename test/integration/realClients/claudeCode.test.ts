import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importTraceFile } from '../../../engine/node/traces/importTraceFile';
import { recordedTruth } from '../../../engine/traces/replay/recordedTruth';
import type { TraceImport } from '../../../engine/traces/TraceEvent';
import { expectedUsage, figuresKey, importedCalls, sortedKeys, usageEvents, usageOf } from '../../support/realClients/importExpectations';
import { runRealClient, type HarnessCall, type RealClientRun } from '../../support/realClients/realClientHarness';
import { expectEveryTurnOffline, expectEveryUsageOnce, expectMainThreadSteps, expectReplayWithinTwoPercent, expectScriptedTurns } from '../../support/realClients/scenarioChecks';
import { claudeSessionFiles, type ClaudeSessionFiles } from '../../support/realClients/sessionFiles';
import { sessionTask } from '../../../engine/node/traces/live/sessionThreads';
import { parseJsonLines } from '../../../engine/traces/jsonText';
import { turnEnded } from '../../../engine/traces/turnEnded';

// The real Claude Code CLI (test/realClients, 2.1.332), offline against the scripted server: three
// `claude -p` turns with Read, Bash, a foreground subagent and a manual /compact
// (test/support/realClients/claudeCodeScenario.ts). Nothing it wrote is kept.

let run: RealClientRun;
let files: ClaudeSessionFiles;
let imported: TraceImport;

const agentCalls = (...agents: string[]): HarnessCall[] => run.modelCalls.filter((c) => agents.includes(c.agent));

describe('[real-client-harness] Claude Code 2.1.332 through the scripted loopback server', () => {
  beforeAll(async () => {
    run = await runRealClient('claude-code');
    files = claudeSessionFiles(run);
    imported = importTraceFile(files.session);
  }, 20 * 60_000);
  afterAll(() => run?.remove());

  it('[real-client-offline] every address a Claude Code process tried is on loopback, and the trace of every turn shows its calls to the server', () => {
    expectEveryTurnOffline(run);
  });

  it('[real-client-harness] every turn exits 0 and the server answered exactly the scripted calls, nothing else', () => {
    expectScriptedTurns(run, ['turn 1: tools and a subagent', 'turn 2: /compact', 'turn 3: after the compaction']);
    expect(run.modelCalls.map((c) => c.agent)).toEqual(['main', 'main', 'main', 'subagent', 'subagent', 'main', 'compaction', 'main', 'main']);
  });

  it('[real-client-usage-honest] the server bills each call its own o200k count of the prompt, split by cache TTL, and never hands out the same usage twice', () => {
    for (const c of run.modelCalls) {
      const u = expectedUsage(c);
      expect(u.input + u.cacheRead + u.cacheWrite, `call ${c.index} (${c.rule})`).toBe(c.promptTokens);
      expect(u.cacheWrite1h).toBeLessThanOrEqual(u.cacheWrite);
      expect(c.promptTokens).toBeGreaterThan(1000);
    }
    expect(new Set(run.modelCalls.map((c) => figuresKey(expectedUsage(c)))).size).toBe(run.modelCalls.length);
    // CLAUDE_CODE_PROMPT_CACHE_TTL=1h: the main thread writes for an hour, the subagent and the compaction for 5 minutes.
    expect(agentCalls('main').every((c) => expectedUsage(c).cacheWrite1h === expectedUsage(c).cacheWrite)).toBe(true);
    expect(agentCalls('subagent', 'compaction').every((c) => expectedUsage(c).cacheWrite1h === 0 && expectedUsage(c).cacheWrite > 0)).toBe(true);
    expect(run.modelCalls.filter((c) => expectedUsage(c).cacheRead > 0).length).toBeGreaterThanOrEqual(6);
  });

  it('[real-client-session-files] Claude Code wrote one session, and the subagent as agent-<id>.jsonl with its meta naming the Agent call', () => {
    expect(files.subagents).toHaveLength(1);
    const sub = files.subagents[0]!;
    const meta = JSON.parse(readFileSync(sub.meta!, 'utf8')) as Record<string, unknown>;
    expect(meta).toMatchObject({ agentType: 'general-purpose', toolUseId: 'toolu_h2_agent', description: 'Read the settings' });
    const lines = readFileSync(sub.jsonl, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.filter((l) => l['type'] === 'assistant' || l['type'] === 'user').every((l) => l['isSidechain'] === true && l['agentId'] === sub.agentId)).toBe(true);
    const main = readFileSync(files.session, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(main.filter((l) => l['type'] === 'system' && l['subtype'] === 'compact_boundary')).toHaveLength(1);
    expect(main.filter((l) => l['type'] === 'user' && l['isCompactSummary'] === true)).toHaveLength(1);
  });

  it('[real-client-session-files] [live-title] [live-done] the finished session is titled by its first request, not /compact\'s wrapper, and its last turn ended', () => {
    expect(sessionTask(imported.events)).toMatch(/^H2-TURN-1: read notes\.txt/);
    const records = parseJsonLines(readFileSync(files.session, 'utf8'), files.session);
    expect(turnEnded(records, 'claude-code-jsonl')).toBe(true);
    const call = records.findIndex((r) => JSON.stringify(r.value).includes('"type":"tool_use"'));
    expect(turnEnded(records.slice(0, call + 1), 'claude-code-jsonl')).toBe(false);
  });

  it('[real-client-subagents] [trace-claude-subagents] a subagent file imported on its own holds exactly that subagent\'s calls and usage, as its own run', () => {
    const sub = importTraceFile(files.subagents[0]!.jsonl);
    expect(importedCalls(sub.events)).toHaveLength(agentCalls('subagent').length);
    expect(sortedKeys(usageEvents(sub.events).map(usageOf))).toEqual(sortedKeys(agentCalls('subagent').map(expectedUsage)));
    // Alone, the subagent's run is the trace's main thread.
    expect(new Set(usageEvents(sub.events).map((e) => e.agentId))).toEqual(new Set([undefined]));
  });

  it('[real-client-calls-exact] [trace-claude-compaction-call] the main thread has one step per main-thread call the server answered, the compaction call included', () => {
    expectMainThreadSteps(run, imported);
  });

  it('[real-client-subagents] [real-client-calls-exact] [trace-claude-subagents] the session\'s import holds each subagent\'s calls and events under its agent id', () => {
    const id = files.subagents[0]!.agentId;
    expect(importedCalls(imported.events).filter((c) => c.agentId === id)).toHaveLength(agentCalls('subagent').length);
    expect(imported.events.some((e) => e.type === 'subagent_spawn' && e.agentId === id)).toBe(true);
    expect(imported.events.some((e) => e.type === 'tool_call' && e.agentId === id && e.name === 'Read')).toBe(true);
    expect(importedCalls(imported.events)).toHaveLength(run.modelCalls.length);
  });

  it('[real-client-usage-exact] every call\'s usage as the server returned it is one usage event of the session\'s import, and there is no other', () => {
    expectEveryUsageOnce(run, imported);
  });

  it('[real-client-prompt-tokens] the recorded prompt tokens of every call are the server\'s count', () => {
    const recorded = recordedTruth(imported.events).perStep.map((s) => s.prompt).sort((a, b) => a - b);
    const server = run.modelCalls.map((c) => c.promptTokens).sort((a, b) => a - b);
    expect(recorded).toEqual(server);
  });

  it('[real-client-prompt-tokens] [replay-as-recorded] Strata\'s as-recorded replay of every call is within 2% of the prompt the server counted', () => {
    expectReplayWithinTwoPercent(run, imported, 'anthropic');
  });
});
