import type { StrataEvent } from '../../engine/contract';

/** Longest an event waits when the window draws no frames (hidden or minimized): rAF is paused there. */
export const MAX_EVENT_WAIT_MS = 100;
/** Shortest time between two flushes: a flush costs every shown view a render, layout and paint. */
export const MIN_FLUSH_INTERVAL_MS = 50;

/**
 * Coalesces host events into one flush per drawn frame, at most one per MIN_FLUSH_INTERVAL_MS.
 * A busy run delivers dozens of events a second in bursts; applying each as its own store change
 * made every subscribed view re-run its selectors and React re-render per event, and a flush every
 * frame still re-laid out the shown view 60 times a second. Events keep their order; nothing is dropped.
 */
export function createEventQueue(flush: (events: StrataEvent[]) => void, minInterval = MIN_FLUSH_INTERVAL_MS): (event: StrataEvent) => void {
  let queued: StrataEvent[] = [];
  let pending = false;
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = (at: number) => {
    if (!pending) return;
    pending = false;
    clearTimeout(timer);
    last = at;
    const events = queued;
    queued = [];
    flush(events);
  };
  const onFrame = (at: number) => {
    if (!pending) return;
    if (at - last < minInterval) requestAnimationFrame(onFrame);
    else run(at);
  };
  return (event) => {
    queued.push(event);
    if (pending) return;
    pending = true;
    if (typeof requestAnimationFrame !== 'function') {
      timer = setTimeout(() => run(0), 0);
      return;
    }
    timer = setTimeout(() => run(performance.now()), MAX_EVENT_WAIT_MS);
    requestAnimationFrame(onFrame);
  };
}
