import { describe, expect, it } from 'vitest';
import {
  isCheckpointError,
  makeCheckpoint,
  NativeCompaction,
  type CheckpointErrorCode,
  type CompactionCompletedEvent,
  type ContextCheckpoint,
} from '../../../../../engine/conversation/checkpoint';

const parts = (over: Partial<ContextCheckpoint> = {}): ContextCheckpoint => ({
  sourceTurnIds: ['t1', 't2'],
  retainedTurnIds: ['t3', 't4'],
  telemetryBefore: { tokens: 9000, contextWindow: 10000 },
  telemetryAfter: { tokens: 3000, contextWindow: 10000 },
  summary: 'Decided to keep the session cookie; login test still flaky.',
  ...over,
});

const completed = (contextId: string, checkpoint?: ContextCheckpoint): CompactionCompletedEvent => ({ kind: 'compaction_completed', contextId, ...(checkpoint ? { checkpoint } : {}) });

describe('makeCheckpoint', () => {
  it('[checkpoint-disjoint] disjoint turns and telemetry that shrank make a checkpoint, copied from its inputs', () => {
    const input = parts();
    const made = makeCheckpoint(input);
    expect(made).toEqual(input);
    expect(made).not.toBe(input);
    (input.sourceTurnIds as string[]).push('t3');
    expect(made).toMatchObject({ sourceTurnIds: ['t1', 't2'] });
  });

  it.each<[string, Partial<ContextCheckpoint>]>([
    ['equal telemetry', { telemetryAfter: { tokens: 9000 } }],
    ['nothing retained', { retainedTurnIds: [] }],
    ['zero tokens after', { telemetryAfter: { tokens: 0 } }],
  ])('[checkpoint-disjoint] %s is allowed', (_name, over) => {
    expect(isCheckpointError(makeCheckpoint(parts(over)))).toBe(false);
  });

  it.each<[string, Partial<ContextCheckpoint>, CheckpointErrorCode, string]>([
    ['a turn both summarized and retained', { retainedTurnIds: ['t2', 't3'] }, 'overlapping_turns', 'turns both summarized and retained: t2'],
    ['every turn both summarized and retained', { retainedTurnIds: ['t1', 't2', 't1'] }, 'overlapping_turns', 'turns both summarized and retained: t1, t2'],
    ['telemetry that grew by one token', { telemetryAfter: { tokens: 9001 } }, 'telemetry_grew', 'telemetry after (9001 tokens) exceeds telemetry before (9000 tokens)'],
    ['negative tokens', { telemetryAfter: { tokens: -1 } }, 'invalid_telemetry', 'telemetry tokens must be integers >= 0'],
    ['fractional tokens', { telemetryBefore: { tokens: 10.5 } }, 'invalid_telemetry', 'telemetry tokens must be integers >= 0'],
    ['NaN tokens', { telemetryBefore: { tokens: Number.NaN } }, 'invalid_telemetry', 'telemetry tokens must be integers >= 0'],
    ['no source turns', { sourceTurnIds: [] }, 'no_source_turns', 'must summarize at least one turn'],
    ['a blank summary', { summary: '  \n' }, 'blank_summary', 'non-blank summary'],
  ])('[checkpoint-disjoint] %s is a typed error and no checkpoint', (_name, over, code, text) => {
    const made = makeCheckpoint(parts(over));
    expect(isCheckpointError(made)).toBe(true);
    expect(made).toMatchObject({ kind: 'checkpoint_error', code });
    expect((made as { message: string }).message).toContain(text);
    expect((made as { message: string }).message.startsWith('[checkpoint-disjoint]')).toBe(true);
  });
});

describe('NativeCompaction', () => {
  it('[no-fabricated-checkpoint] a runtime that returns no checkpoint completes with none', () => {
    const wait = NativeCompaction.begin('ctx-1', {});
    expect(NativeCompaction.receive(wait, completed('ctx-1'))).toEqual({ status: 'completed', contextId: 'ctx-1', checkpoint: undefined });
  });

  it('[no-fabricated-checkpoint] the checkpoint the runtime provided is passed on: the event\'s, else the API\'s', () => {
    const fromApi = parts({ summary: 'from the API' });
    const fromEvent = parts({ summary: 'from the event' });
    expect(NativeCompaction.receive(NativeCompaction.begin('ctx-1', { checkpoint: fromApi }), completed('ctx-1'))).toEqual({ status: 'completed', contextId: 'ctx-1', checkpoint: fromApi });
    expect(NativeCompaction.receive(NativeCompaction.begin('ctx-1', { checkpoint: fromApi }), completed('ctx-1', fromEvent))).toEqual({ status: 'completed', contextId: 'ctx-1', checkpoint: fromEvent });
    expect(NativeCompaction.receive(NativeCompaction.begin('ctx-1', {}), completed('ctx-1', fromEvent))).toEqual({ status: 'completed', contextId: 'ctx-1', checkpoint: fromEvent });
  });

  it('[no-fabricated-checkpoint] [checkpoint-disjoint] a provided checkpoint that breaks the rules is rejected, not repaired', () => {
    const bad = parts({ retainedTurnIds: ['t1'] });
    const step = NativeCompaction.receive(NativeCompaction.begin('ctx-1', { checkpoint: bad }), completed('ctx-1'));
    expect(step).toMatchObject({ status: 'completed', checkpoint: undefined, rejected: { kind: 'checkpoint_error', code: 'overlapping_turns' } });
  });

  it('[no-fabricated-checkpoint] an event of another context is ignored: still waiting, mismatch reported, its checkpoint unused', () => {
    const wait = NativeCompaction.begin('ctx-1', {});
    const other = NativeCompaction.receive(wait, completed('ctx-2', parts({ summary: 'someone else' })));
    expect(other).toEqual({ status: 'waiting', wait: { contextId: 'ctx-1', apiCheckpoint: undefined, ignoredEvents: 1 }, mismatch: { expected: 'ctx-1', got: 'ctx-2' } });
    expect(wait.ignoredEvents).toBe(0);
    if (other.status !== 'waiting') throw new Error('expected to keep waiting');
    const again = NativeCompaction.receive(other.wait, completed('ctx-3'));
    expect(again).toMatchObject({ status: 'waiting', wait: { ignoredEvents: 2 } });
    if (again.status !== 'waiting') throw new Error('expected to keep waiting');
    expect(NativeCompaction.receive(again.wait, completed('ctx-1'))).toEqual({ status: 'completed', contextId: 'ctx-1', checkpoint: undefined });
  });

  it('[no-fabricated-checkpoint] a controller loop runs the post hook only after the completion of its own context', () => {
    const log: string[] = [];
    const stream = [completed('ctx-9'), completed('ctx-2'), completed('ctx-1', parts()), completed('ctx-1')];
    log.push('pre');
    let step: ReturnType<typeof NativeCompaction.receive> | undefined;
    let wait = NativeCompaction.begin('ctx-1', {});
    for (const event of stream) {
      step = NativeCompaction.receive(wait, event);
      if (step.status === 'completed') break;
      log.push(`ignored ${event.contextId}`);
      wait = step.wait;
    }
    log.push('post');
    expect(log).toEqual(['pre', 'ignored ctx-9', 'ignored ctx-2', 'post']);
    expect(step).toMatchObject({ status: 'completed', checkpoint: parts() });
  });
});
