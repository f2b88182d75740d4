import { describe, expect, it } from 'vitest';
import type { StrataEvent } from '../../../../../engine/contract';
import type { Action } from '../../../../../renderer/store/actions';
import { classifyLog, eventsCapacity, eventsInitialState, reduceEvents, type EventsState } from '../../../../../renderer/store/events/eventsSlice';
import { makeAgent, makeDetail, makeLogEntry, logEvent } from '../../fixtures';

const ev = (event: StrataEvent): Action => ({ type: 'event', event });
const now = () => Date.parse('2026-01-05T10:00:00Z');
const run = (actions: Action[], from: EventsState = eventsInitialState) => actions.reduce<EventsState>((s, a) => reduceEvents(s, a, now), from);

describe('classifyLog', () => {
  it.each([
    ['Context refreshed · Generation 2 → 3 · Reason: context limit', 'info', 'refresh'],
    ['Conversation summarize (threshold) compacted: 9000 → 2000 tokens · over budget', 'info', 'compaction'],
    ['PreToolUse hook denied run_command: rm -rf', 'warn', 'hook'],
    ['worker-a failed: provider error 529 overloaded', 'error', 'error'],
    ['Provider rate limit; retrying in 2 s', 'warn', 'error'],
    ['Memory entry m-1 verified', 'info', 'memory'],
    ['Turn 3 · gen 1 · 2 tool call(s) · prompt 900 tokens, 80% cached (modeled) · prefix reuse 90%', 'debug', 'turn'],
    ['Demo run restarted', 'info', 'run'],
    ['Spawned probe-1 (probe) for: find it', 'info', 'run'],
    ['something else', 'info', 'log'],
  ] as const)('%s -> %s', (message, level, kind) => {
    expect(classifyLog({ message, level })).toBe(kind);
  });
});

describe('reduceEvents', () => {
  it('adds log lines once by seq, in arrival order', () => {
    const s = run([ev(logEvent(makeLogEntry(1))), ev(logEvent(makeLogEntry(2))), ev(logEvent(makeLogEntry(2)))]);
    expect(s.entries.map((e) => e.id)).toEqual(['log:1', 'log:2']);
  });

  it('puts an agent detail backlog older than everything held first', () => {
    const s = run([ev(logEvent(makeLogEntry(10))), { type: 'agent.detail', detail: makeDetail(makeAgent('a'), [makeLogEntry(4), makeLogEntry(3), makeLogEntry(10)]) }]);
    expect(s.entries.map((e) => e.id)).toEqual(['log:3', 'log:4', 'log:10']);
  });

  it('turns memory changes, runs and conversation resets into entries; ignores turns and compaction events (logged already)', () => {
    const s = run([
      ev({ name: 'memory.changed', payload: { change: 'purged', id: null, entry: null } }),
      ev({ name: 'run.changed', payload: { run: { runId: 'demo', driver: 'trace', label: 'Demo', status: 'finished', startedAt: 0, turns: 40, agents: 8, tickMs: 250, reason: null } } }),
      ev({ name: 'conversation.changed', payload: { agentId: 'a', change: 'reset', tokens: 0 } }),
      ev({ name: 'conversation.changed', payload: { agentId: 'a', change: 'turn', tokens: 10 } }),
      ev({ name: 'conversation.changed', payload: { agentId: 'a', change: 'compaction', tokens: 10 } }),
    ]);
    expect(s.entries.map((e) => [e.kind, e.text, e.at])).toEqual([
      ['memory', 'Project memory purged', now()],
      ['run', 'Run demo finished · 40 turns, 8 agents', now()],
      ['run', 'Conversation of a started over', now()],
    ]);
    expect(new Set(s.entries.map((e) => e.id)).size).toBe(3);
  });

  it('is bounded, dropping the oldest', () => {
    const s = run(Array.from({ length: eventsCapacity + 10 }, (_, i) => ev(logEvent(makeLogEntry(i + 1)))));
    expect(s.entries).toHaveLength(eventsCapacity);
    expect(s.entries[0]?.id).toBe('log:11');
  });

  it('keeps its identity for actions it does not reduce', () => {
    const s = run([ev(logEvent(makeLogEntry(1)))]);
    expect(reduceEvents(s, { type: 'view.select', view: 'events' })).toBe(s);
    expect(reduceEvents(s, ev({ name: 'conversation.changed', payload: { agentId: 'a', change: 'turn', tokens: 1 } }))).toBe(s);
  });
});
