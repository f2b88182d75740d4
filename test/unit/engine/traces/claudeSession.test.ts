import { describe, expect, it } from 'vitest';
import { importClaudeCode } from '../../../../engine/traces/claudeCode';
import { claudeSession } from '../../../../engine/traces/claudeSession';
import type { TraceEvent, UsageEvent } from '../../../../engine/traces/TraceEvent';

/** A made-up Claude Code session, written the way 2.1.33x writes one (line types and fields as recorded there). */
const jsonl = (...records: object[]): string => records.map((r) => JSON.stringify(r)).join('\n') + '\n';
const MAIN = 'projects/p/s1.jsonl';
const SUB = 'projects/p/s1/subagents/agent-a7.jsonl';
const at = (s: number) => `2026-11-20T10:00:${String(s).padStart(2, '0')}.000Z`;
const usage = (n: number) => ({ input_tokens: n, cache_read_input_tokens: 1000 + n, cache_creation_input_tokens: 100 + n, output_tokens: 10 + n, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 100 + n } });
const user = (content: unknown, s: number, extra: object = {}) => ({ type: 'user', uuid: `u${s}`, timestamp: at(s), sessionId: 's1', message: { role: 'user', content }, ...extra });
const assistant = (id: string, blocks: object[], n: number, s: number, extra: object = {}) => ({ type: 'assistant', uuid: `a${s}`, timestamp: at(s), message: { id, role: 'assistant', model: 'claude-opus-5-5', content: blocks, usage: usage(n) }, ...extra });
const costState = (s: number, t: { input: number; read: number; write: number; out: number }) => ({
  type: 'cost-state',
  timestamp: at(s),
  totalCostUSD: 0.5,
  modelUsage: { 'claude-opus-5-5': { inputTokens: t.input, cacheReadInputTokens: t.read, cacheCreationInputTokens: t.write, cacheCreationEphemeral1hInputTokens: t.write, outputTokens: t.out } },
});
const shape = (hash: string, tools: string[]) => ({ type: 'api-request-shape', shapeHash: hash, timestamp: at(1), shape: { system: [{ type: 'text', text: 'You are a Claude agent.' }, { type: 'text', text: 'Be brief.' }], tools: tools.map((name) => ({ name, description: `${name} tool`, input_schema: { type: 'object' } })) } });

const sum = (us: UsageEvent[]) => us.reduce((t, u) => ({ input: t.input + u.input, read: t.read + u.cacheRead, write: t.write + u.cacheWrite, out: t.out + u.output }), { input: 0, read: 0, write: 0, out: 0 });
const usages = (events: TraceEvent[]) => events.filter((e): e is UsageEvent => e.type === 'usage');

describe('Claude Code 2.1.33x session lines', () => {
  it('[trace-claude-prefix] api-request-shape is the prefix as sent, once per shape; a changed shape is a new prefix', () => {
    const text = jsonl(user('hi', 0), shape('h1', ['Bash', 'Read']), { type: 'api-request', shapeHash: 'h1' }, assistant('m1', [{ type: 'text', text: 'a' }], 1, 2), shape('h1', ['Bash', 'Read']), shape('h2', ['Bash', 'Read', 'Edit']), assistant('m2', [{ type: 'text', text: 'b' }], 2, 3));
    const prefixes = importClaudeCode(text, MAIN).events.filter((e) => e.type === 'prefix');
    expect(prefixes).toHaveLength(2);
    expect(prefixes[0]).toMatchObject({ system: ['You are a Claude agent.', 'Be brief.'], source: { line: 2 } });
    expect(prefixes[0]?.type === 'prefix' && prefixes[0].tools.map((t) => JSON.parse(t).name)).toEqual(['Bash', 'Read']);
    expect(prefixes[1]?.type === 'prefix' && prefixes[1].tools).toHaveLength(3);
  });

  it('[trace-claude-prefix] without a shape line, the first prompt_snapshot that has tools stands in', () => {
    const snap = (tools: object[] | undefined) => ({ type: 'attachment', timestamp: at(1), attachment: { type: 'prompt_snapshot', systemPrompt: ['sys A'], ...(tools ? { tools } : {}) } });
    const text = jsonl(user('hi', 0), snap(undefined), snap([{ name: 'Bash' }]), snap([{ name: 'Read' }]), assistant('m1', [{ type: 'text', text: 'a' }], 1, 2));
    const prefixes = importClaudeCode(text, MAIN).events.filter((e) => e.type === 'prefix');
    expect(prefixes).toMatchObject([{ system: ['sys A'], tools: [JSON.stringify({ name: 'Bash' })] }]);
  });

  it('[trace-claude-context] attachments give the text they recorded with its role; older ones are rendered and marked estimated; bookkeeping ones send nothing', () => {
    const text = jsonl(
      user('hi', 0),
      { type: 'attachment', timestamp: at(1), attachment: { type: 'environment', snapshot: {} }, rendered: [{ content: '<system-reminder>\nEnv\n</system-reminder>' }], renderedRole: 'system' },
      { type: 'attachment', timestamp: at(1), attachment: { type: 'remote_session_change' }, rendered: [{ content: 'Attribution' }], renderedRole: 'user' },
      { type: 'attachment', timestamp: at(1), attachment: { type: 'session_context', context: {} } },
      { type: 'attachment', timestamp: at(1), attachment: { type: 'skill_listing', content: '- a skill' } },
      { type: 'attachment', timestamp: at(1), attachment: { type: 'task_reminder', content: [], itemCount: 0 } },
      { type: 'attachment', timestamp: at(1), attachment: { type: 'edited_text_file', filename: 'src/a.ts', snippet: '1\tx' } },
      assistant('m1', [{ type: 'text', text: 'a' }], 1, 2),
    );
    const contexts = importClaudeCode(text, MAIN).events.filter((e) => e.type === 'context');
    expect(contexts.map((c) => c.type === 'context' && [c.kind, c.role, c.estimated ?? false])).toEqual([
      ['environment', 'system', false],
      ['remote_session_change', 'user', false],
      ['skill_listing', 'system', true],
      ['edited_text_file', 'system', true],
    ]);
    expect(contexts[0]).toMatchObject({ text: '<system-reminder>\nEnv\n</system-reminder>' });
    expect(contexts[3]?.type === 'context' && contexts[3].text).toContain('src/a.ts');
  });

  it('[trace-claude-compaction-call] the compaction call is the part of the billed totals the transcript does not explain, a step of its own after the compaction', () => {
    const text = jsonl(
      user('hi', 0),
      assistant('m1', [{ type: 'text', text: 'a' }], 1, 1),
      assistant('m2', [{ type: 'text', text: 'b' }], 2, 2),
      costState(3, { input: 3, read: 2003, write: 203, out: 23 }),
      { type: 'system', subtype: 'compact_boundary', timestamp: at(4), compactMetadata: { preservedMessages: { uuids: ['a2'] } } },
      user('Summary of the work so far.', 4, { isCompactSummary: true }),
      costState(5, { input: 3 + 50, read: 2003 + 4000, write: 203 + 300, out: 23 + 80 }),
      user('next', 6),
      assistant('m3', [{ type: 'text', text: 'c' }], 3, 7),
      costState(8, { input: 3 + 50 + 3, read: 2003 + 4000 + 1003, write: 203 + 300 + 103, out: 23 + 80 + 13 }),
    );
    const events = claudeSession(importClaudeCode(text, MAIN)).events;
    const us = usages(events);
    expect(us.map((u) => [u.step, u.call ?? 'response'])).toEqual([
      [0, 'response'],
      [1, 'response'],
      [2, 'compaction'],
      [3, 'response'],
    ]);
    expect(us[2]).toMatchObject({ input: 50, cacheRead: 4000, cacheWrite: 300, cacheWrite1h: 300, output: 80, model: 'claude-opus-5-5' });
    const compaction = events.findIndex((e) => e.type === 'compaction');
    expect(events[compaction + 1]).toBe(us[2]);
    expect(events[compaction]).toMatchObject({ summary: 'Summary of the work so far.', keptLines: [3] });
  });

  it('[trace-claude-compaction-call] no total after a compaction (older clients): no call is invented', () => {
    const text = jsonl(user('hi', 0), assistant('m1', [{ type: 'text', text: 'a' }], 1, 1), { type: 'system', subtype: 'compact_boundary', timestamp: at(4) }, user('Summary.', 4, { isCompactSummary: true }), assistant('m2', [{ type: 'text', text: 'b' }], 2, 5));
    expect(usages(claudeSession(importClaudeCode(text, MAIN)).events).map((u) => u.call ?? 'response')).toEqual(['response', 'response']);
  });

  it('[trace-claude-subagents] a subagent file joins its session as a child agent after the launching call; its usage explains its part of the billed totals', () => {
    const main = jsonl(
      user('hi', 0),
      assistant('m1', [{ type: 'text', text: 'delegating' }], 1, 1),
      assistant('m1', [{ type: 'tool_use', id: 'toolu_agent', name: 'Agent', input: { prompt: 'look' } }], 1, 1),
      user([{ type: 'tool_result', tool_use_id: 'toolu_agent', content: 'found it' }], 6),
      assistant('m2', [{ type: 'text', text: 'done' }], 2, 7),
      costState(8, sum([1, 2, 11, 12].map((n) => ({ type: 'usage', input: usage(n).input_tokens, cacheRead: usage(n).cache_read_input_tokens, cacheWrite: usage(n).cache_creation_input_tokens, output: usage(n).output_tokens }) as UsageEvent))),
    );
    const sub = jsonl(
      user('look', 2, { isSidechain: true, agentId: 'a7' }),
      shape('hs', ['Read']),
      assistant('s1', [{ type: 'tool_use', id: 'toolu_read', name: 'Read', input: { file_path: 'a.txt' } }], 11, 3, { isSidechain: true, agentId: 'a7' }),
      user([{ type: 'tool_result', tool_use_id: 'toolu_read', content: 'hello' }], 4, { isSidechain: true, agentId: 'a7' }),
      assistant('s2', [{ type: 'text', text: 'found it' }], 12, 5, { isSidechain: true, agentId: 'a7' }),
    );
    const trace = claudeSession(importClaudeCode(main, MAIN), [{ trace: importClaudeCode(sub, SUB, { agentId: 'a7' }), agentId: 'a7', parentCallId: 'toolu_agent', label: 'Explore: look' }]);
    const shapeOf = trace.events.map((e) => [e.type, e.agentId ?? 'main', e.step ?? null]);
    const spawn = shapeOf.findIndex(([t]) => t === 'subagent_spawn');
    expect(shapeOf.slice(spawn - 3, spawn)).toEqual([
      ['assistant_text', 'main', 0],
      ['tool_call', 'main', 0],
      ['usage', 'main', 0],
    ]);
    expect(trace.events[spawn]).toMatchObject({ agentId: 'a7', parentCallId: 'toolu_agent', label: 'Explore: look' });
    expect(trace.events.filter((e) => e.agentId === 'a7' && e.type === 'usage').map((e) => e.step)).toEqual([1, 2]);
    expect(trace.events.find((e) => e.type === 'prefix')).toMatchObject({ agentId: 'a7' });
    expect(shapeOf.at(-2)).toEqual(['usage', 'main', 3]);
    // The totals are fully explained by the four responses: no compaction call, nothing invented.
    expect(usages(trace.events)).toHaveLength(4);
    expect(trace.files).toEqual([MAIN, SUB]);
  });

  it('[trace-claude-subagents] a subagent file imported alone is its own run, on the main thread', () => {
    const sub = jsonl(user('look', 2, { isSidechain: true, agentId: 'a7' }), assistant('s2', [{ type: 'text', text: 'found it' }], 12, 5, { isSidechain: true, agentId: 'a7' }));
    const events = claudeSession(importClaudeCode(sub, SUB)).events;
    expect(events.map((e) => [e.type, e.agentId ?? 'main'])).toEqual([
      ['user_input', 'main'],
      ['assistant_text', 'main'],
      ['usage', 'main'],
    ]);
  });
});
