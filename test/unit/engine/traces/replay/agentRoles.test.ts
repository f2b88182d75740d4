import { describe, expect, it } from 'vitest';
import type { Tokenizer } from '../../../../../engine/tokens/Tokenizer';
import { compareNotes } from '../../../../../engine/traces/compare/compareNotes';
import { roleNotes } from '../../../../../engine/traces/compare/contextNotes';
import { agentTypeOf, replayRoles, roleOfAgentType } from '../../../../../engine/traces/replay/agentRoles';
import { replayTrace } from '../../../../../engine/traces/replay/replayTrace';
import type { ReplayOptions } from '../../../../../engine/traces/replay/ReplayTypes';
import type { TraceEvent } from '../../../../../engine/traces/TraceEvent';

const source = { file: 'made-up.jsonl', line: 1 };
const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const iso = (s: number) => new Date(T0 + s * 1000).toISOString();
const quarter: Tokenizer = { encoding: 'quarter', count: (t) => Math.ceil(t.length / 4) };
const opts = (over: Partial<ReplayOptions> = {}): ReplayOptions => ({ strategy: 'variable', budget: 20_000, provider: 'anthropic', tokenizer: quarter, timer: () => 0, ...over });
const code = (name: string, lines: number) => Array.from({ length: lines }, (_, i) => `${i + 1}\texport function ${name}${i}(value: number) { return value * ${i}; }`).join('\n');

let clock = 0;
const at = () => iso(clock++);
const say = (text: string, step: number, agentId?: string): TraceEvent => ({ type: 'assistant_text', text, step, at: at(), source, ...(agentId ? { agentId } : {}) });
const call = (callId: string, name: string, args: object, step: number, agentId?: string): TraceEvent => ({ type: 'tool_call', callId, name, arguments: JSON.stringify(args), step, at: at(), source, ...(agentId ? { agentId } : {}) });
const result = (callId: string, content: string, agentId?: string): TraceEvent => ({ type: 'tool_result', callId, content, isError: false, at: at(), source, ...(agentId ? { agentId } : {}) });

/** A made-up Claude Code session: the main agent reads and greps, launches an Explore and a general-purpose subagent, and goes on. */
function multiAgent(): TraceEvent[] {
  clock = 0;
  const ev: TraceEvent[] = [{ type: 'user_input', text: 'Fix the token refresh in src/auth/store.ts.', at: at(), source }];
  let step = 0;
  for (let i = 0; i < 3; i++) {
    ev.push(say(`Reading src/auth/part${i}.ts`, step), call(`r${i}`, 'Read', { file_path: `src/auth/part${i}.ts` }, step), call(`g${i}`, 'Bash', { command: `grep -rn saveToken src/auth/part${i}.ts` }, step));
    ev.push(result(`r${i}`, code(`part${i}`, 30)), result(`g${i}`, `src/auth/part${i}.ts:3: saveToken(x)\n`.repeat(20)));
    step++;
  }
  const sub = (id: string, label: string, callId: string) => {
    ev.push(call(callId, 'Agent', { subagent_type: label.split(':')[0], prompt: `Look into ${id}` }, step++));
    ev.push({ type: 'subagent_spawn', agentId: id, parentCallId: callId, label, at: at(), source });
    ev.push({ type: 'user_input', text: `Look into ${id}: where is saveToken called?`, agentId: id, at: at(), source });
    ev.push(say('Searching.', step, id), call(`${id}-r`, 'Grep', { pattern: 'saveToken' }, step++, id), result(`${id}-r`, 'src/auth/store.ts:12: saveToken(t)', id));
    ev.push(say('Found one caller in src/auth/store.ts.', step++, id));
    ev.push({ type: 'subagent_return', agentId: id, at: at(), source });
    ev.push(result(callId, `Report from ${id}: saveToken is called in src/auth/store.ts:12.`));
  };
  sub('a1', 'Explore: find the callers', 'task1');
  sub('a2', 'general-purpose: check the tests', 'task2');
  for (let i = 0; i < 3; i++) ev.push(say(`Editing src/auth/store.ts, round ${i}`, step++));
  return ev;
}

describe('[replay-roles] the role each replayed agent gets', () => {
  it.each([
    ['Explore: find the callers', 'Explore'],
    ['general-purpose: check the tests', 'general-purpose'],
    ['Plan', 'Plan'],
    ['/root/explorer Darwin', 'explorer'],
    ['/root/worker_2', 'worker_2'],
    [undefined, undefined],
    ['', undefined],
  ])('[replay-roles] the agent type in the spawn label %j is %j', (label, type) => {
    expect(agentTypeOf(label)).toBe(type);
  });

  it.each([
    ['Explore', 'probe'],
    ['explorer', 'probe'],
    ['Plan', 'architect'],
    ['general-purpose', 'worker'],
    ['worker', 'worker'],
    ['default', 'worker'],
    ['code-reviewer', 'reviewer'],
    ['test-runner', 'test'],
    ['debugger', 'debug'],
    ['statusline-setup', 'worker'],
    ['latest-notes', 'worker'],
    [undefined, 'worker'],
  ])('[replay-roles] a subagent of type %j is a %s', (type, role) => {
    expect(roleOfAgentType(type).role).toBe(role);
  });

  it('[replay-roles] the main agent is the primary when it launches subagents, else a worker; each subagent by its recorded type', () => {
    const roles = replayRoles(multiAgent());
    expect([...roles].map(([k, r]) => [k ?? 'main', r.role])).toEqual([
      ['main', 'primary'],
      ['a1', 'probe'],
      ['a2', 'worker'],
    ]);
    expect(roles.get(undefined)?.why).toBe('main agent, launches 2 subagents');
    const single = replayRoles([{ type: 'user_input', text: 'hi', source }]);
    expect([...single]).toEqual([[undefined, { role: 'worker', why: 'main agent, launches no subagent' }]]);
    // A subagent whose events come without a spawn label (a merged conversion) is a worker.
    expect(replayRoles([{ type: 'assistant_text', text: 'x', step: 0, agentId: 'sub', source }]).get('sub')).toEqual({ role: 'worker', why: 'subagent of unrecorded type' });
  });

  it('[replay-roles] [strategy-role] on a trace where roles differ, role_optimized leaves the primary\'s raw code and tool output out; the probe and the worker see what variable gives them', () => {
    const ev = multiAgent();
    const v = replayTrace(ev, opts());
    const ro = replayTrace(ev, opts({ strategy: 'role_optimized' }));
    expect(ro.agents).toEqual([
      { agentId: null, role: 'primary', why: 'main agent, launches 2 subagents' },
      { agentId: 'a1', role: 'probe', why: 'subagent type Explore' },
      { agentId: 'a2', role: 'worker', why: 'subagent type general-purpose' },
    ]);
    const main = (r: typeof v) => r.steps.filter((s) => s.agentId === undefined);
    const subs = (r: typeof v) => r.steps.filter((s) => s.agentId !== undefined).map((s) => [s.agentId, s.promptBytes, s.toolResults]);
    // After the first read the primary's requests are smaller under role_optimized: no file contents, no grep output.
    expect(main(ro).slice(1).every((s, i) => s.promptBytes < main(v)[i + 1]!.promptBytes)).toBe(true);
    expect(main(v).at(-1)!.toolResults).toBe(8);
    // What the primary keeps of its tool results: the two subagents' reports, never a read or a grep.
    expect(main(ro).at(-1)!.toolResults).toBe(2);
    expect(subs(ro)).toEqual(subs(v));
    expect(ro.totals.promptTokens).toBeLessThan(v.totals.promptTokens);
    expect(roleNotes([{ trace: 'multi.jsonl', result: v }, { trace: 'multi.jsonl', result: ro }])).toEqual([
      'agent roles on multi.jsonl: main agent primary (main agent, launches 2 subagents); subagents probe (subagent type Explore), worker (subagent type general-purpose)',
    ]);
  });

  it('[replay-roles] on a single-agent trace role_optimized gives variable\'s figures step for step, and the notes say why', () => {
    const ev = multiAgent().filter((e) => e.agentId === undefined && e.type !== 'subagent_spawn' && e.type !== 'subagent_return');
    const v = replayTrace(ev, opts());
    const ro = replayTrace(ev, opts({ strategy: 'role_optimized' }));
    expect(ro.agents).toEqual([{ agentId: null, role: 'worker', why: 'main agent, launches no subagent' }]);
    expect(ro.steps).toEqual(v.steps);
    const entries = [
      { trace: 'single.jsonl', result: v },
      { trace: 'single.jsonl', result: ro },
    ];
    const note = 'role_optimized = variable on single.jsonl at 20,000: one agent, role worker; role_optimized differs only for a primary (it leaves out raw code and tool output) and for probes (unrelated reports)';
    expect(roleNotes(entries)).toEqual([note]);
    expect(compareNotes(entries)).toContain(note);
    // Not claimed where the figures differ, nor without both strategies at that budget.
    expect(roleNotes([{ trace: 'single.jsonl', result: ro }])).toEqual([]);
    expect(roleNotes([{ trace: 'single.jsonl', result: v }, { trace: 'single.jsonl', result: replayTrace(ev, opts({ strategy: 'role_optimized', budget: 900 })) }])).toEqual([]);
  });

  it('[replay-roles] traces with the same reason share one note; a primary that nothing was cut from is said so, not passed off as a difference', () => {
    const single = multiAgent().filter((e) => e.agentId === undefined && e.type !== 'subagent_spawn' && e.type !== 'subagent_return');
    const pair = (trace: string, ev: TraceEvent[]) => [
      { trace, result: replayTrace(ev, opts()) },
      { trace, result: replayTrace(ev, opts({ strategy: 'role_optimized' })) },
    ];
    expect(roleNotes([...pair('a.jsonl', single), ...pair('b.jsonl', single)])).toEqual([
      'role_optimized = variable on 2 traces at 20,000 (a.jsonl, b.jsonl): one agent, role worker; role_optimized differs only for a primary (it leaves out raw code and tool output) and for probes (unrelated reports)',
    ]);
    // The main agent launches a subagent but reads nothing itself: it is the primary, and role_optimized has nothing to leave out.
    clock = 0;
    const quiet: TraceEvent[] = [
      { type: 'user_input', text: 'Find who calls saveToken.', at: at(), source },
      call('t1', 'Agent', { subagent_type: 'general-purpose', prompt: 'find callers' }, 0),
      { type: 'subagent_spawn', agentId: 's1', parentCallId: 't1', label: 'general-purpose: find callers', at: at(), source },
      { type: 'user_input', text: 'find callers of saveToken', agentId: 's1', at: at(), source },
      say('Searching.', 1, 's1'),
      { type: 'subagent_return', agentId: 's1', at: at(), source },
      result('t1', 'saveToken is called in src/auth/store.ts:12.'),
      say('It is called once, in src/auth/store.ts.', 2),
    ];
    const notes = roleNotes(pair('quiet.jsonl', quiet));
    expect(notes).toEqual([
      'agent roles on quiet.jsonl: main agent primary (main agent, launches 1 subagent); subagents worker (subagent type general-purpose)',
      'role_optimized = variable on quiet.jsonl at 20,000: 2 agents, roles primary, worker; nothing role_optimized leaves out for the primary reached them',
    ]);
  });
});
