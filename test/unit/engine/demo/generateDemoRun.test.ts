import { describe, expect, it } from 'vitest';
import { DEFAULT_CONTEXT_CONFIG } from '../../../../engine/conversation/contextConfig';
import { checkAnthropicOrder, checkOpenAIOrder, orphanedResults, unansweredCalls } from '../../../support/providerValidity';
import { demoRunStats, formatDemoRunStats, generateDemoRun, type DemoRunScript } from '../../../../engine/demo/generateDemoRun';
import { AgentRuntime, type RuntimeEvent } from '../../../../engine/runtime/AgentRuntime';
import type { SpawnRequest } from '../../../../engine/runtime/Driver';
import { TraceDriver } from '../../../../engine/runtime/TraceDriver';
import { demoFiles } from '../../../support/demoFiles';
import { newEngine, quarterTokenizer } from '../../../support/engineFixtures';

const script = generateDemoRun(demoFiles);

/** Every spawn request of the script, with the agent that made it. */
function spawns(s: DemoRunScript): (SpawnRequest & { parent: string })[] {
  return [...s.scripts].flatMap(([parent, turns]) => turns.flatMap((t) => (t.spawn ?? []).map((r) => ({ ...r, parent }))));
}

/** A script as bytes: the same seed must give exactly these. */
const bytes = (s: DemoRunScript) => JSON.stringify({ ...s, scripts: [...s.scripts] });

describe('generateDemoRun', () => {
  it('[demo-run] is deterministic: the same seed gives the same script byte for byte, another seed another script', () => {
    const again = generateDemoRun(demoFiles, 1);
    expect(again).toEqual(script);
    expect(bytes(again)).toBe(bytes(script));
    const other = generateDemoRun(demoFiles, 2);
    expect(other).not.toEqual(script);
    expect(bytes(other)).not.toBe(bytes(script));
  });

  it('[demo-run] is a realistic multi-agent session: roles, turns, tool use, failing then passing tests, findings and two context limits', () => {
    const s = demoRunStats(script);
    expect(s.agentsByRole.primary).toBe(1);
    expect(s.agentsByRole.worker ?? 0).toBeGreaterThanOrEqual(4);
    expect(s.agentsByRole.probe ?? 0).toBeGreaterThanOrEqual(1);
    expect(s.agentsByRole.reviewer ?? 0).toBeGreaterThanOrEqual(1);
    expect(s.turns).toBeGreaterThanOrEqual(300);
    expect(s.toolCallsByName['grep'] ?? 0).toBeGreaterThan(20);
    expect(s.toolCallsByName['read_file'] ?? 0).toBeGreaterThan(20);
    expect(s.toolCallsByName['edit_file'] ?? 0).toBeGreaterThan(10);
    expect(s.testRuns.failing).toBeGreaterThanOrEqual(1);
    expect(s.testRuns.passing).toBeGreaterThanOrEqual(1);
    expect(s.findings).toBeGreaterThanOrEqual(5);
    expect(s.contextLimits).toBeGreaterThanOrEqual(2);
    expect(formatDemoRunStats(s)).toMatch(/^\d+ agents \(.*\), \d+ turns, \d+ tool calls/);

    // Tests fail early and pass later: the first run of the integration suite fails, the last passes.
    const runs = [...script.scripts.values()].flat().flatMap((t) => t.toolCalls.filter((c) => c.name === 'run_command' && c.arguments.includes('npm test')).map((c) => t.results?.find((r) => r.callId === c.id)));
    expect(runs[0]?.isError).toBe(true);
    expect(runs[0]?.content).toMatch(/FAIL {2}tests\/.*\.spec\.ts > /);
    expect(runs[0]?.content).toMatch(/❯ tests\/[\w/]+\.spec\.ts:\d+:\d+/);
    expect(runs.at(-1)?.isError).toBe(false);
    expect(runs.at(-1)?.content).toMatch(/Tests {2}\d+ passed \(\d+\)/);
    // The refused prompts use Anthropic's wording and sit on long-running workers.
    const limited = [...script.scripts].filter(([, turns]) => turns.some((t) => t.contextLimit));
    for (const [id, turns] of limited) {
      expect(id).toMatch(/^worker-/);
      expect(turns.length).toBeGreaterThan(30);
      for (const t of turns.filter((x) => x.contextLimit)) expect(t.contextLimit).toMatch(/^prompt is too long: \d+ tokens > 200000 maximum$/);
    }
  });

  it('[demo-run] every tool call has exactly one result with its id, ids are unique across the run, reads name real files, and only the last turn of an agent is done', () => {
    const ids = new Set<string>();
    for (const [agentId, turns] of script.scripts) {
      turns.forEach((t, i) => {
        expect(t.done === true).toBe(i === turns.length - 1);
        expect(t.toolCalls.length).toBeLessThanOrEqual(3);
        for (const c of t.toolCalls) {
          expect(ids.has(c.id)).toBe(false);
          ids.add(c.id);
          expect(c.id).toBe(`${agentId}-t${i + 1}-c${t.toolCalls.indexOf(c) + 1}`);
          expect(t.results?.filter((r) => r.callId === c.id)).toHaveLength(1);
          const args = JSON.parse(c.arguments) as Record<string, unknown>;
          if (c.name === 'read_file') expect(Object.keys(script.workspace.files)).toContain(args['path']);
          if (c.name === 'grep') expect(args).toEqual({ pattern: expect.any(String), path: expect.any(String) });
          if (c.name === 'edit_file') expect(args).toEqual({ path: expect.any(String), summary: expect.any(String) });
        }
        expect(t.results?.length ?? 0).toBe(t.toolCalls.length);
      });
    }
  });

  it('[demo-run] the agent tree: every spawned agent has a script and every script but the primary is spawned once; the reviewer depends on the workers; the probe only reads', () => {
    const spawned = spawns(script);
    const ids = spawned.map((s) => s.agentId);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...script.scripts.keys()].sort()).toEqual([script.primary.agentId, ...ids].sort());
    const primaryChildren = spawned.filter((s) => s.parent === script.primary.agentId);
    const workers = primaryChildren.filter((s) => s.role === 'worker').map((s) => s.agentId);
    const reviewer = primaryChildren.find((s) => s.role === 'reviewer');
    expect(reviewer?.dependsOn).toEqual(expect.arrayContaining(workers));
    // Dependencies are spawned before their dependants (the runtime drops unknown ones).
    for (const s of spawned) for (const d of s.dependsOn ?? []) expect(ids.indexOf(d)).toBeLessThan(ids.indexOf(s.agentId));
    const probe = primaryChildren.find((s) => s.role === 'probe');
    expect(probe).toBeDefined();
    const probeTools = new Set((script.scripts.get(probe?.agentId ?? '') ?? []).flatMap((t) => t.toolCalls.map((c) => c.name)));
    expect([...probeTools].sort()).toEqual(['grep', 'read_file']);
    expect(script.primary).toMatchObject({ parent: null, role: 'primary' });
    expect(script.pinned.map((p) => p.kind)).toEqual(expect.arrayContaining(['objective', 'acceptance', 'constraint']));
    expect(script.pinned.find((p) => p.kind === 'constraint')?.content).toBe('Never log token values or token hashes.');
  });

  it('[demo-run] other seeds give other sessions that keep every invariant', () => {
    for (const seed of [3, 4, 5, 6]) {
      const s = generateDemoRun(demoFiles, seed);
      const st = demoRunStats(s);
      expect(st.turns).toBeGreaterThanOrEqual(300);
      expect(st.contextLimits).toBeGreaterThanOrEqual(2);
      expect(st.testRuns.failing).toBeGreaterThan(0);
      expect(st.testRuns.passing).toBeGreaterThan(0);
      expect([...s.scripts.keys()].sort()).toEqual([s.primary.agentId, ...spawns(s).map((x) => x.agentId)].sort());
    }
  });

  it('[demo-run] replays through the real runtime: every agent done, two refreshes, a report from every child, provider-valid conversations, in the scheduled order', async () => {
    const { engine, clock } = newEngine();
    const events: RuntimeEvent[] = [];
    const rt = new AgentRuntime({
      engine,
      driver: new TraceDriver(script.scripts),
      tokenizer: quarterTokenizer,
      clock,
      context: DEFAULT_CONTEXT_CONFIG,
      onEvent: (e) => events.push(e),
      toolItems: (agent, call, outcome, at) => [
        {
          id: `tool:${call.id}`,
          kind: outcome.isError ? 'failure' : 'tool_output',
          class: outcome.isError ? 'task_state' : 'ephemeral',
          source: call.name === 'run_command' ? 'test_result' : 'repository_source',
          content: outcome.content,
          agentId: agent.agentId,
          taskId: agent.taskId,
          at,
          signature: `${call.name}:${call.arguments}`,
        },
      ],
    });
    for (const p of script.pinned) engine.addItem({ ...p, at: clock.now() });
    rt.addAgent(script.primary);
    const order: string[] = [];
    const started = performance.now();
    while (rt.runnable().length > 0) {
      const r = await rt.step();
      if (r) order.push(r.agentId);
      clock.advance(20_000);
    }
    const ms = performance.now() - started;

    const ids = rt.agentIds();
    expect(ids.sort()).toEqual([...script.scripts.keys()].sort());
    for (const id of ids) expect({ id, status: rt.status(id), error: rt.error(id) }).toEqual({ id, status: 'done', error: undefined });
    expect(order).toEqual(script.order);
    const refreshes = events.filter((e) => e.type === 'context.refreshed');
    expect(refreshes.length).toBeGreaterThanOrEqual(2);
    expect(refreshes.every((e) => e.type === 'context.refreshed' && e.to === e.from + 1 && /prompt is too long/.test(e.reason))).toBe(true);

    const reports = engine.items().filter((i) => i.provenance.source === 'parent_report');
    for (const child of spawns(script)) {
      expect(reports.filter((r) => r.provenance.agentId === child.agentId && r.audience === child.parent)).toHaveLength(1);
    }
    const toPrimary = reports.filter((r) => r.audience === script.primary.agentId).map((r) => r.provenance.agentId);
    expect(toPrimary.sort()).toEqual(spawns(script).filter((s) => s.parent === script.primary.agentId).map((s) => s.agentId).sort());

    for (const id of ids) {
      const messages = rt.conversation(id).manager.buildMessages({ transients: false });
      expect(checkOpenAIOrder(messages)).toEqual([]);
      expect(checkAnthropicOrder(messages)).toEqual([]);
      expect(orphanedResults(messages)).toEqual([]);
      expect(unansweredCalls(messages)).toEqual([]);
    }
    console.log(`[demo-run] ${formatDemoRunStats(demoRunStats(script))}; replayed ${order.length} turns in ${Math.round(ms)} ms (${refreshes.length} context refreshes, ${reports.length} reports)`);
  }, 60_000);
});
