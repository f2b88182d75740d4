import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StrataEvent } from '../../../../engine/contract';
import { createEventQueue, MAX_EVENT_WAIT_MS, MIN_FLUSH_INTERVAL_MS } from '../../../../renderer/controller/eventQueue';
import { reduce } from '../../../../renderer/store/reduce';
import { agentUpdated, makeAgent, makeLogEntry, stateWithAgents } from '../fixtures';

const log = (seq: number): StrataEvent => ({ name: 'log', payload: { entry: makeLogEntry(seq, { message: `line ${seq}` }) } });

describe('createEventQueue', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('flushes every event of a frame once, in order, and starts a new batch after', () => {
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
    const flushed: StrataEvent[][] = [];
    const push = createEventQueue((events) => flushed.push(events));
    push(log(1));
    push(log(2));
    push(log(3));
    expect(flushed).toEqual([]);
    expect(frames).toHaveLength(1);
    frames.shift()!(0);
    expect(flushed).toEqual([[log(1), log(2), log(3)]]);
    push(log(4));
    frames.shift()!(MIN_FLUSH_INTERVAL_MS);
    expect(flushed).toEqual([[log(1), log(2), log(3)], [log(4)]]);
  });

  it('skips frames sooner than MIN_FLUSH_INTERVAL_MS after the last flush, then flushes all that arrived meanwhile', () => {
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
    const flushed: StrataEvent[][] = [];
    const push = createEventQueue((events) => flushed.push(events));
    push(log(1));
    frames.shift()!(1000);
    push(log(2));
    frames.shift()!(1016);
    push(log(3));
    frames.shift()!(1033);
    expect(flushed).toEqual([[log(1)]]);
    expect(frames).toHaveLength(1);
    frames.shift()!(1000 + MIN_FLUSH_INTERVAL_MS);
    expect(flushed).toEqual([[log(1)], [log(2), log(3)]]);
    expect(frames).toHaveLength(0);
  });

  it('still flushes when the window draws no frames (hidden), after at most MAX_EVENT_WAIT_MS, and only once', () => {
    vi.useFakeTimers();
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
    const flushed: StrataEvent[][] = [];
    const push = createEventQueue((events) => flushed.push(events));
    push(log(1));
    vi.advanceTimersByTime(MAX_EVENT_WAIT_MS - 1);
    expect(flushed).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(flushed).toEqual([[log(1)]]);
    // The late frame finds nothing pending.
    frames.shift()!(0);
    expect(flushed).toHaveLength(1);
  });
});

describe('the events action', () => {
  it('equals applying each event in order', () => {
    const start = stateWithAgents([makeAgent('primary', { parent: null })]);
    const events = [agentUpdated(makeAgent('auth-1', { parent: 'primary' })), log(1), agentUpdated(makeAgent('auth-1', { parent: 'primary', status: 'done' })), log(2)];
    const oneByOne = events.reduce((s, event) => reduce(s, { type: 'event', event }), start);
    expect(reduce(start, { type: 'events', events })).toEqual(oneByOne);
    expect(reduce(start, { type: 'events', events: [] })).toBe(start);
  });
});
