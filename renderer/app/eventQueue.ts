import type { StrataEvent } from '../../engine/contract';

/** Longest an event waits when the window draws no frames (hidden or minimized): rAF is paused there. */
export const MAX_EVENT_WAIT_MS = 100;

/**
 * Coalesces host events into one flush per drawn frame. A busy run delivers dozens of events a
 * second in bursts; applying each as its own store change made every subscribed view re-run its
 * selectors and React re-render per event. Events keep their order; nothing is dropped.
 */
export function createEventQueue(flush: (events: StrataEvent[]) => void): (event: StrataEvent) => void {
  let queued: StrataEvent[] = [];
  let pending = false;
  const run = () => {
    if (!pending) return;
    pending = false;
    const events = queued;
    queued = [];
    flush(events);
  };
  return (event) => {
    queued.push(event);
    if (pending) return;
    pending = true;
    const timer = setTimeout(run, typeof requestAnimationFrame === 'function' ? MAX_EVENT_WAIT_MS : 0);
    if (typeof requestAnimationFrame === 'function')
      requestAnimationFrame(() => {
        clearTimeout(timer);
        run();
      });
  };
}
