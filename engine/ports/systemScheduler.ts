import type { Scheduler } from './Scheduler';

/**
 * The platform's timers. Node and browsers both have them, but the pure core is type-checked
 * without either's types, so they are read off the global object here (`setImmediate` is Node's).
 */
interface PlatformTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
  setImmediate?(fn: () => void): unknown;
  clearImmediate?(handle: unknown): void;
}

const timers = globalThis as unknown as PlatformTimers;

/**
 * Real timers, for the host processes and the live-session worker threads: the only place in the
 * engine that owns a timer. A repeating timer does not keep a process alive (a host that only plays
 * the demo must not keep a CLI or test process running); a one-shot one does until it fires, as
 * `setTimeout` does, and one of 0 ms runs on the next turn of the event loop (`setImmediate`).
 */
export const systemScheduler: Scheduler = {
  every(ms, fn) {
    const handle = timers.setInterval(fn, ms);
    (handle as { unref?: () => void }).unref?.();
    return () => timers.clearInterval(handle);
  },
  after(ms, fn) {
    if (ms <= 0 && timers.setImmediate && timers.clearImmediate) {
      const handle = timers.setImmediate(fn);
      return () => timers.clearImmediate?.(handle);
    }
    const handle = timers.setTimeout(fn, ms);
    return () => timers.clearTimeout(handle);
  },
};
