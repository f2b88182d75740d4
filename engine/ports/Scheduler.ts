/** Repeating timers as a port: the host never calls `setInterval` itself, so tests drive time. */
export interface Scheduler {
  /** Run `fn` every `ms` milliseconds until the returned function is called. */
  every(ms: number, fn: () => void): () => void;
}

/** A scheduler whose timers fire only when `tick` is called (tests). */
export function manualScheduler(): Scheduler & { tick(times?: number): void; active(): number } {
  const timers = new Set<() => void>();
  return {
    every(_ms, fn) {
      timers.add(fn);
      return () => {
        timers.delete(fn);
      };
    },
    tick(times = 1) {
      for (let i = 0; i < times; i++) for (const fn of [...timers]) fn();
    },
    active: () => timers.size,
  };
}
