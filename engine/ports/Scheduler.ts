import type { Clock } from './Clock';

/** Timers as a port: the engine never calls `setTimeout` or `setInterval` itself, so tests drive time. */
export interface Scheduler {
  /** Run `fn` every `ms` milliseconds until the returned function is called. */
  every(ms: number, fn: () => void): () => void;
  /** Run `fn` once, `ms` milliseconds from now (0 or less: on the next turn of the event loop), unless the returned function is called first. */
  after(ms: number, fn: () => void): () => void;
}

/** A clock a manual scheduler can move (`manualClock`). */
type SettableClock = Clock & { set(ms: number): void };

/** A scheduler whose timers fire only when told to (tests); see {@link manualScheduler}. */
export interface ManualScheduler extends Scheduler {
  /** Fire every repeating timer `times` times, whatever its period (one-shot timers wait for `advance`). */
  tick(times?: number): void;
  /**
   * Move time on by `ms`, firing each timer that falls due on the way, in the order they fall due
   * (the clock, when there is one, reads each timer's own time while it runs); a timer set by a
   * timer that fires is fired too when it falls due within `ms` (`after(0, …)` at once).
   */
  advance(ms: number): void;
  /** Timers set and not yet fired (one-shot) or stopped. */
  active(): number;
}

/** Timers fired by one `advance` at most: past it, timers are setting each other without end. */
const ADVANCE_FIRES_MAX = 1_000_000;

/**
 * A scheduler whose timers fire only when `tick` or `advance` is called (tests). With `clock`
 * (a `manualClock`), `advance` moves that clock, so the code under test reads the same time its
 * timers run at; without one it keeps a time of its own, starting at 0.
 */
export function manualScheduler(clock?: SettableClock): ManualScheduler {
  interface Timer {
    fn: () => void;
    due: number;
    /** The period of a repeating timer; undefined for a one-shot one. */
    period: number | undefined;
  }
  const timers = new Map<number, Timer>();
  let own = 0;
  let next = 0;
  const now = () => (clock ? clock.now() : own);
  const setNow = (ms: number) => {
    if (clock) clock.set(ms);
    else own = ms;
  };
  const add = (fn: () => void, ms: number, period: number | undefined) => {
    const id = next++;
    timers.set(id, { fn, due: now() + Math.max(0, ms), period });
    return () => {
      timers.delete(id);
    };
  };
  return {
    every: (ms, fn) => add(fn, Math.max(1, ms), Math.max(1, ms)),
    after: (ms, fn) => add(fn, ms, undefined),
    tick(times = 1) {
      for (let i = 0; i < times; i++) for (const t of [...timers.values()]) if (t.period !== undefined) t.fn();
    },
    advance(ms) {
      const target = now() + Math.max(0, ms);
      for (let fired = 0; ; fired++) {
        if (fired > ADVANCE_FIRES_MAX) throw new Error(`More than ${ADVANCE_FIRES_MAX} timers fell due within ${ms} ms: timers keep setting each other.`);
        let first: [number, Timer] | undefined;
        // Maps iterate in insertion order, so timers due at the same time fire in the order they were set.
        for (const entry of timers) if (entry[1].due <= target && (!first || entry[1].due < first[1].due)) first = entry;
        if (!first) break;
        const [id, t] = first;
        if (t.due > now()) setNow(t.due);
        if (t.period === undefined) timers.delete(id);
        else t.due += t.period;
        t.fn();
      }
      if (target > now()) setNow(target);
    },
    active: () => timers.size,
  };
}
