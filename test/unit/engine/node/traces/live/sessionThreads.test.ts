import { describe, expect, it } from 'vitest';
import { importTraceText } from '../../../../../../engine/traces/importTrace';
import { compactionSteps, sessionTask, subagentThreads } from '../../../../../../engine/node/traces/live/sessionThreads';
import type { TraceEvent } from '../../../../../../engine/traces/TraceEvent';

const FILE = 'sessions/made-up.jsonl';
const jsonl = (...records: object[]): string => records.map((r) => JSON.stringify(r)).join('\n') + '\n';
const user = (content: unknown, extra: object = {}) => ({ type: 'user', timestamp: '2026-11-30T10:00:00.000Z', message: { role: 'user', content }, ...extra });
const assistant = (id: string, blocks: object[], extra: object = {}) => ({
  type: 'assistant',
  timestamp: '2026-11-30T10:00:01.000Z',
  message: { id, role: 'assistant', model: 'claude-made-up-1', content: blocks, usage: { input_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 1 } },
  ...extra,
});
const side = (agentId: string) => ({ isSidechain: true, agentId });

describe('[live-threads] the threads of a watched session', () => {
  const lines = [
    user('  '),
    user('explore the repo'),
    assistant('m1', [{ type: 'tool_use', id: 'tu_a', name: 'Task', input: { prompt: 'look around' } }]),
    user('look around', side('a1')),
    assistant('s1', [{ type: 'text', text: 'found it' }], side('a1')),
    user([{ type: 'tool_result', tool_use_id: 'tu_a', content: 'found it' }]),
    assistant('m2', [{ type: 'tool_use', id: 'tu_b', name: 'Task', input: { prompt: 'run the tests' } }]),
    user('run the tests', side('b2')),
    assistant('s2', [{ type: 'text', text: 'running' }], side('b2')),
  ];

  it('[live-threads] the task is the first non-empty input of the main agent; each subagent is a main thread of its own', () => {
    const events = importTraceText(jsonl(...lines), FILE).events;
    expect(sessionTask(events)).toBe('explore the repo');
    const threads = subagentThreads(events);
    expect(threads.map((t) => [t.key, t.task])).toEqual([
      ['a1', 'look around'],
      ['b2', 'run the tests'],
    ]);
    for (const t of threads) {
      expect(t.events.every((e: TraceEvent) => e.agentId === undefined && e.type !== 'subagent_spawn' && e.type !== 'subagent_return')).toBe(true);
      expect(sessionTask(t.events)).toBe(t.task);
    }
    expect(threads[0]!.events.map((e) => e.type)).toEqual(['user_input', 'assistant_text', 'usage']);
    expect(threads[1]!.lastIndex).toBeGreaterThan(threads[0]!.lastIndex);
    expect(sessionTask([])).toBe('');
    expect(subagentThreads(importTraceText(jsonl(user('only me'), assistant('m', [{ type: 'text', text: 'ok' }])), FILE).events)).toEqual([]);
  });

  it('[live-threads] a subagent is done once something follows its return; the one a file stops inside may still be running', () => {
    const events = importTraceText(jsonl(...lines), FILE).events;
    const [first, last] = subagentThreads(events);
    expect(first!.done).toBe(true);
    // The importer closed b2 at the end of the file, but nothing followed: still running.
    expect(events.at(-1)).toMatchObject({ type: 'subagent_return', agentId: 'b2' });
    expect(last!.done).toBe(false);
    const finished = importTraceText(jsonl(...lines, user([{ type: 'tool_result', tool_use_id: 'tu_b', content: 'ok' }])), FILE).events;
    expect(subagentThreads(finished).map((t) => t.done)).toEqual([true, true]);
  });

  it('[live-threads] a compaction is marked at the first step after it; one after the last step waits for a step', () => {
    const compact = [
      { type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', timestamp: '2026-11-30T10:00:02Z', compactMetadata: { trigger: 'auto' } },
      user('This session is being continued. Summary: explored.', { isCompactSummary: true }),
    ];
    const events = importTraceText(jsonl(user('go'), assistant('m1', [{ type: 'text', text: 'a' }]), ...compact, user('next'), assistant('m2', [{ type: 'text', text: 'b' }]), ...compact), FILE).events;
    const steps = events.filter((e) => e.type === 'usage').map((e) => e.step);
    expect(steps).toHaveLength(2);
    expect(compactionSteps(events)).toEqual([steps[1]]);
    expect(compactionSteps(importTraceText(jsonl(...lines), FILE).events)).toEqual([]);
  });
});
